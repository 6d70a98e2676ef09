package types

import "slices"

// ErrorKind is a request-error kind (Part III §7.2).
type ErrorKind string

const (
	ErrNotFound            ErrorKind = "not_found"
	ErrInvalidRequest      ErrorKind = "invalid_request"
	ErrUnknownBaseline     ErrorKind = "unknown_baseline"
	ErrIdempotencyConflict ErrorKind = "idempotency_conflict"
	ErrBoundsExceeded      ErrorKind = "bounds_exceeded"
	ErrUnsupported         ErrorKind = "unsupported"
	ErrInternal            ErrorKind = "internal"
)

// ErrorKinds is the closed set of Part III §7.2 in table order.
var ErrorKinds = []ErrorKind{ErrNotFound, ErrInvalidRequest, ErrUnknownBaseline, ErrIdempotencyConflict, ErrBoundsExceeded, ErrUnsupported, ErrInternal}

// IsKnown reports membership in ErrorKinds.
func (k ErrorKind) IsKnown() bool { return slices.Contains(ErrorKinds, k) }

// Effective applies Part III §7.2: an unrecognized kind reads as internal.
func (k ErrorKind) Effective() ErrorKind {
	if k.IsKnown() {
		return k
	}
	return ErrInternal
}

// RequestError is a request error's structuredContent (Part III §7.2),
// returned with isError true.
type RequestError struct {
	Error RequestErrorBody `json:"error"`
	// CatalogVersion is the operation-mandated sibling of a failed catalog
	// get (Part II §6.3, Part III §7.2). Other siblings are dropped.
	CatalogVersion string `json:"catalog_version,omitempty"`
}

// RequestErrorBody is the "error" member.
type RequestErrorBody struct {
	Kind ErrorKind `json:"kind"`
	// Message is Server-authored prose; Clients branch on Kind only.
	Message string `json:"message"`
}
