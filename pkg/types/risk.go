package types

// Risk is the pair of risk representations required wherever risk appears
// (Part II §5.3). It is embedded in CatalogEntry and PlanStep.
type Risk struct {
	// Risk is the engine-defined level; informative only to generic
	// Clients.
	Risk      string    `json:"risk"`
	RiskHints RiskHints `json:"risk_hints"`
}

// RiskHints are the generic indicators Host gates act on (Part II §5.3).
//
// Pointers keep absence visible: §5.3 lists the three members without
// marking them required, and §7.3 requires missing risk information to be
// treated as risky, so absence must not silently read as false.
type RiskHints struct {
	ReadOnly    *bool `json:"readOnly,omitempty"`
	Destructive *bool `json:"destructive,omitempty"`
	OpenWorld   *bool `json:"openWorld,omitempty"`
}

// Hints builds a complete RiskHints.
func Hints(readOnly, destructive, openWorld bool) RiskHints {
	return RiskHints{&readOnly, &destructive, &openWorld}
}

// Complete reports whether all three members are present.
func (h RiskHints) Complete() bool {
	return h.ReadOnly != nil && h.Destructive != nil && h.OpenWorld != nil
}

// FailClosed returns the values a Host gate must act on: a missing member
// reads as the risky value (readOnly false, destructive and openWorld
// true), per Part II §7.3 "Fail closed".
func (h RiskHints) FailClosed() (readOnly, destructive, openWorld bool) {
	readOnly = h.ReadOnly != nil && *h.ReadOnly
	destructive = h.Destructive == nil || *h.Destructive
	openWorld = h.OpenWorld == nil || *h.OpenWorld
	return
}

// RequiresApproval reports whether the Host gate must obtain approval
// (Part II §7.3): destructive or openWorld, with missing members risky.
func (h RiskHints) RequiresApproval() bool {
	_, d, o := h.FailClosed()
	return d || o
}

// AggregateRisk computes the maximum risk of several steps from their hints
// (Part II §5.3): AND of readOnly, OR of destructive and openWorld. Missing
// members count as their risky value (§7.3). The result is complete; for no
// steps it is the identity {readOnly: true, destructive: false,
// openWorld: false}.
func AggregateRisk(hints []RiskHints) RiskHints {
	ro, de, ow := true, false, false
	for _, h := range hints {
		r, d, o := h.FailClosed()
		ro = ro && r
		de = de || d
		ow = ow || o
	}
	return Hints(ro, de, ow)
}
