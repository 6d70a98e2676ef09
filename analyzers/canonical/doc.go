// Package canonical defines an Analyzer that reports composite literals of
// github.com/pilotagekit/pilotagekit/pkg/types whose constant values
// contradict the Pilotage specification.
//
// # Analyzer canonical
//
// canonical: report pkg/types literals that contradict the spec's constants
//
// pkg/types gives the Part II and Part III shapes Go types, but a struct
// type cannot say that two of its fields must agree. The analyzer checks
// the literals whose fields are compile-time constants:
//
//   - types.Outcome with OK true and a non-null Error, or OK false and a
//     null Error (Part II §5.7: error is null exactly when ok is true);
//   - types.Outcome with a reserved Status and the wrong OK: success is
//     ok true, validation_error, catalog_drift, promotion_drift, partial
//     and error are ok false (Part II §5.7);
//   - types.RequestErrorBody with a Kind outside the closed set of Part III
//     §7.2;
//   - a capability declaration that declares a capability while the one it
//     depends on is undeclared (execute without validate, trace_fetch
//     without execute, plan without validate, validate without guides;
//     Part II §4.1, §4.3 rule 3). Inside a types.Manifest literal the
//     effective map of each Language is used (Part II §4.2); a declaration
//     seen alone is reported only when it maps the dependency to false,
//     since a Server-level default elsewhere may declare it;
//   - a types.Language with Retention "none" whose effective capabilities
//     declare trace_fetch (Part II §4.3 rule 5);
//   - a types.Capability literal that sets no Form (types.Capability{},
//     {Sub: ...}): its zero value is absent, and a capability declaration
//     leaves it out, so it declares nothing (Part II §4.2); build one with
//     types.Declare, types.DeclareWith or types.Undeclare, which the
//     checks above read like the literals they build.
//
// Values are resolved through go/types: a field set from a named constant
// counts, a field set from a variable or a call is left alone.
//
// Example:
//
//	types.Outcome{OK: true, Status: types.StatusSuccess, Error: types.StringValue("boom")}
//
// is reported at the Error value.
package canonical
