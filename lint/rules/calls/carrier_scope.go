package calls

import "github.com/pilotagekit/pilotagekit/lint"

// carrierScope states the scope and exceptions of
// call-carrier-error-loop-fault, whose rule literal the schema branch owns
// (issue 30 §2), so that the family's error rules are all held to them; a
// literal that states its own keeps them, and this file can then go.
func carrierScope(r *lint.Rule) {
	if r.ID != "call-carrier-error-loop-fault" || r.Scope != "" || len(r.Exceptions) > 0 || r.NoExceptions != "" {
		return
	}
	r.Scope = "Validate, execute and trace-fetch calls answered with JSON-RPC error -32602 or -32600 whose arguments satisfy the tool's own inputSchema (required members and JSON types), for tools the recording lists with a schema that states its structure without composition or $ref."
	r.Exceptions = []lint.Exception{
		{Spec: "Part III §4.6", Quote: "Only structural faults may be expressed by the schema. These are exactly: - a missing schema-required member; - an incorrect JSON type.", Fixture: "good-missing-required"},
		{Spec: "Part III §7.1", Quote: "The only schema-level faults allowed for conformant Pilotage tools are structural:", Fixture: "good-structural"},
	}
}
