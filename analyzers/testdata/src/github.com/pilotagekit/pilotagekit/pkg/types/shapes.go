package types

// The shapes below mirror pkg/types: same names, fields and constants.

type NullableString struct {
	Set     bool
	Null    bool
	Value   string
	Invalid bool
}

func NullValue() NullableString           { return NullableString{Set: true, Null: true} }
func StringValue(s string) NullableString { return NullableString{Set: true, Value: s} }

type OutcomeStatus string

const (
	StatusSuccess         OutcomeStatus = "success"
	StatusValidationError OutcomeStatus = "validation_error"
	StatusCatalogDrift    OutcomeStatus = "catalog_drift"
	StatusPromotionDrift  OutcomeStatus = "promotion_drift"
	StatusPartial         OutcomeStatus = "partial"
	StatusError           OutcomeStatus = "error"
)

type Outcome struct {
	OK     bool
	Status OutcomeStatus
	Error  NullableString
}

type ErrorKind string

const (
	ErrNotFound       ErrorKind = "not_found"
	ErrInvalidRequest ErrorKind = "invalid_request"
	ErrInternal       ErrorKind = "internal"
)

type RequestError struct {
	Error          RequestErrorBody
	CatalogVersion string
}

type RequestErrorBody struct {
	Kind    ErrorKind
	Message string
}

type CapabilityName string

const (
	CapGuides     CapabilityName = "guides"
	CapCatalog    CapabilityName = "catalog"
	CapValidate   CapabilityName = "validate"
	CapPlan       CapabilityName = "plan"
	CapExecute    CapabilityName = "execute"
	CapTraceFetch CapabilityName = "trace_fetch"
)

type CapabilityForm int

const (
	FormAbsent CapabilityForm = iota
	FormTrue
	FormFalse
	FormObject
	FormInvalid
)

type Capability struct {
	Form CapabilityForm
	Sub  map[string]bool
}

func Declare() Capability { return Capability{Form: FormTrue} }

func DeclareWith(sub ...string) Capability {
	c := Capability{Form: FormObject, Sub: map[string]bool{}}
	for _, s := range sub {
		c.Sub[s] = true
	}
	return c
}

func Undeclare() Capability { return Capability{Form: FormFalse} }

type CapabilityDeclaration map[string]Capability

type Retention string

const (
	RetentionNone    Retention = "none"
	RetentionSession Retention = "session"
)

type Loop struct {
	Validate string
	Execute  string
	Trace    string
}

type Language struct {
	Name         string
	Loop         Loop
	Capabilities CapabilityDeclaration
	Retention    Retention
}

type Manifest struct {
	Pilotage     string
	Languages    []Language
	Capabilities CapabilityDeclaration
}
