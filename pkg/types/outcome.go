package types

import "slices"

// Outcome is the closed classification of a Run or of one trace step
// (Part II §5.7).
type Outcome struct {
	OK     bool          `json:"ok"`
	Status OutcomeStatus `json:"status"`
	// Error must be null exactly when OK is true. NullableString keeps a
	// missing member apart from null.
	Error NullableString `json:"error,omitzero"`
}

// OutcomeStatus is a run- or step-level status. The set is engine-defined
// and closed per Server and Language (Part II §5.7); only the reserved
// statuses are known here.
type OutcomeStatus string

// Reserved statuses (Part II §5.7).
const (
	StatusSuccess         OutcomeStatus = "success"
	StatusValidationError OutcomeStatus = "validation_error"
	StatusCatalogDrift    OutcomeStatus = "catalog_drift"
	StatusPromotionDrift  OutcomeStatus = "promotion_drift"
	StatusPartial         OutcomeStatus = "partial"
	StatusError           OutcomeStatus = "error"
)

// ReservedStatuses lists the reserved statuses in table order.
var ReservedStatuses = []OutcomeStatus{StatusSuccess, StatusValidationError, StatusCatalogDrift, StatusPromotionDrift, StatusPartial, StatusError}

// IsReserved reports whether s is a reserved status.
func (s OutcomeStatus) IsReserved() bool { return slices.Contains(ReservedStatuses, s) }

// IsKnown is IsReserved: the spec knows no other status; engine-defined
// ones are enumerated in each Language's closed-sets guide.
func (s OutcomeStatus) IsKnown() bool { return s.IsReserved() }

// ReservedOK returns the ok value a reserved status must carry.
func (s OutcomeStatus) ReservedOK() (ok, reserved bool) {
	if !s.IsReserved() {
		return false, false
	}
	return s == StatusSuccess, true
}

// IsRefusal reports a refused-Run status (Part II §3.6): no side effects,
// never retained, no trace.
func (s OutcomeStatus) IsRefusal() bool {
	return s == StatusValidationError || s == StatusCatalogDrift || s == StatusPromotionDrift
}

// Effective applies the Part II §1.3 fallback for a received outcome: an
// unrecognized status with ok false reads as partial.
func (o Outcome) Effective() OutcomeStatus {
	if !o.OK && !o.Status.IsReserved() {
		return StatusPartial
	}
	return o.Status
}

// Decision is one branch or loop decision of a control-flow trace step
// (Part II §5.8).
type Decision struct {
	At      string `json:"at"`
	Took    string `json:"took"`
	Because string `json:"because"`
}

// Loop decision values (Part II §5.8). A branch decision's took is the arm
// label instead.
const (
	TookContinue = "continue"
	TookExit     = "exit"
)
