// Package types is a stand-in for github.com/pilotagekit/pilotagekit/pkg/types
// holding the declarations the analyzer tests use.
package types

const (
	ExtensionID       = "io.github.jafarsa0/pilotage"
	MetaKey           = ExtensionID
	LegacyExtensionID = "io.github.jafarsa0.pilotage"
	ShorthandMetaKey  = "pilotage"
	VendorPrefix      = "io.github.jafarsa0/"
	WireVersion       = "1.1"
)

const (
	ToolManifest = "pilotage_manifest"
	ToolGetGuide = "pilotage_get_guide"
	ToolCatalog  = "pilotage_catalog"
)
