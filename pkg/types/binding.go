package types

// Identifiers of the MCP binding (Part III §1, §2).
const (
	// ExtensionID is the Pilotage extension identifier and the only
	// Pilotage _meta key (Part III §1.1, §2).
	ExtensionID = "io.github.jafarsa0/pilotage"
	// MetaKey is the _meta key that carries Pilotage metadata (Part III §2).
	MetaKey = ExtensionID
	// LegacyExtensionID is the dotted form used by earlier documents. It is
	// not wire-normative (Part III §1.1); it exists here for detection only.
	LegacyExtensionID = "io.github.jafarsa0.pilotage"
	// ShorthandMetaKey is the shorthand a sender MUST NOT emit (Part III §2).
	ShorthandMetaKey = "pilotage"
	// VendorPrefix prefixes every Pilotage _meta key (Part III §2).
	VendorPrefix = "io.github.jafarsa0/"
	// WireVersion is the manifest "pilotage" value this module implements
	// (Part II §11.1).
	WireVersion = "1.1"
	// ClientCapabilitiesMetaKey carries a Client's capabilities on the
	// stateless revision (Part III §1.2).
	ClientCapabilitiesMetaKey = "io.modelcontextprotocol/clientCapabilities"
)

// Fixed-name access tools (Part III §4).
const (
	ToolManifest = "pilotage_manifest"
	ToolGetGuide = "pilotage_get_guide"
	ToolCatalog  = "pilotage_catalog"
)

// ReservedToolPrefix begins the names of the fixed-name tools.
//
// Deprecated: the prefix is no Pilotage signal and reserves nothing: the
// binding defines exactly the names in FixedTools, "pilotage" is a French
// and Dutch word (a fleet server's pilotage_flotte is an ordinary tool),
// and a Client finding neither the extension nor a validly answering
// pilotage_manifest "MUST NOT infer Pilotage semantics from tools with
// similar names" (Part III §1.3). Compare names with FixedTools instead.
const ReservedToolPrefix = "pilotage_"

// FixedTools lists the fixed-name access tools in spec order.
var FixedTools = []string{ToolManifest, ToolGetGuide, ToolCatalog}

// MCP protocol revisions this binding supports (Part III, introduction).
const (
	Revision20250618 = "2025-06-18"
	Revision20251125 = "2025-11-25"
	// RevisionStateless has no initialize handshake; the Server describes
	// itself through server/discover (Part III §1.2, §3.3, §8.1).
	RevisionStateless = "2026-07-28"
)

// SupportedRevisions lists the MCP revisions of Part III in order.
var SupportedRevisions = []string{Revision20250618, Revision20251125, RevisionStateless}

// ManifestURI is the RECOMMENDED manifest resource URI (Part III §3.2).
const ManifestURI = "pilotage://manifest"
