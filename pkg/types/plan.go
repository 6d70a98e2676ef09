package types

// Plan is the static preview of a valid program (Part II §5.6).
type Plan struct {
	Steps   []PlanStep `json:"steps"`
	MaxRisk string     `json:"max_risk"`
	// MaxRiskHints is what the Host gate acts on (Part II §7.3).
	MaxRiskHints RiskHints `json:"max_risk_hints"`
}

// Hints returns the risk hints of every step, for AggregateRisk.
func (p Plan) Hints() []RiskHints {
	out := make([]RiskHints, len(p.Steps))
	for i, s := range p.Steps {
		out[i] = s.RiskHints
	}
	return out
}

// PlanStep is one plan step (Part II §5.6).
type PlanStep struct {
	ID string `json:"id"`
	// Calls is present exactly for invoking steps.
	Calls string `json:"calls,omitempty"`
	// Arm is required for a step inside a branch arm.
	Arm *Arm `json:"arm,omitempty"`
	// Loop names the innermost enclosing loop of a loop-body step.
	Loop string `json:"loop,omitempty"`
	Risk
}

// Arm identifies a branch and one of its arms (Part II §5.6).
type Arm struct {
	Branch string `json:"branch"`
	Label  string `json:"label"`
}
