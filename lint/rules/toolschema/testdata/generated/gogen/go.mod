module github.com/pilotagekit/pilotagekit/lint/rules/toolschema/testdata/generated/gogen

go 1.26.0

require (
	github.com/google/jsonschema-go v0.4.3
	github.com/mark3labs/mcp-go v1.2.1
)

require (
	github.com/spf13/cast v1.7.1 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
)
