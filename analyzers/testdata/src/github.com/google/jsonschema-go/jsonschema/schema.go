// Package jsonschema is a stand-in for github.com/google/jsonschema-go/jsonschema.
package jsonschema

type Schema struct {
	Type                 string             `json:"type,omitempty"`
	Description          string             `json:"description,omitempty"`
	Enum                 []any              `json:"enum,omitempty"`
	Const                *any               `json:"const,omitempty"`
	Pattern              string             `json:"pattern,omitempty"`
	MinLength            *int               `json:"minLength,omitempty"`
	MaxLength            *int               `json:"maxLength,omitempty"`
	Format               string             `json:"format,omitempty"`
	Properties           map[string]*Schema `json:"properties,omitempty"`
	Required             []string           `json:"required,omitempty"`
	AdditionalProperties *Schema            `json:"additionalProperties,omitempty"`
	Not                  *Schema            `json:"not,omitempty"`
}

type ForOptions struct{ IgnoreInvalidTypes bool }

func For[T any](opts *ForOptions) (*Schema, error) { return &Schema{}, nil }
