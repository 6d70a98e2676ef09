package types

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Manifest is the Server's Pilotage self-description (Part II §5.1),
// returned by pilotage_manifest (Part III §3.1).
type Manifest struct {
	// Pilotage is the extension version, "major.minor" (Part II §11.1).
	Pilotage string `json:"pilotage"`
	// Languages must not be empty (Part II §5.1).
	Languages []Language `json:"languages"`
	// Capabilities is the optional Server-level default (Part II §4.2).
	Capabilities CapabilityDeclaration `json:"capabilities,omitzero"`
}

// Language is one Language entry of the manifest (Part II §5.1, with the
// MCP resource members of Part III §4 "Manifest reference-field binding").
type Language struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	// Guides is the guide-index reference; on MCP always ToolGetGuide.
	Guides string `json:"guides"`
	// Catalog is present iff catalog is declared; on MCP ToolCatalog.
	Catalog string `json:"catalog,omitempty"`
	// GuidesResource and CatalogResource are the optional resource URIs of
	// Part III §4 and §8.3.
	GuidesResource  string                `json:"guides_resource,omitempty"`
	CatalogResource string                `json:"catalog_resource,omitempty"`
	Loop            Loop                  `json:"loop"`
	Capabilities    CapabilityDeclaration `json:"capabilities,omitzero"`
	Locator         Locator               `json:"locator,omitempty"`
	// ContextSchema is a JSON Schema, present iff the Language requires
	// validation context (Part II §5.1, §6.4).
	ContextSchema      json.RawMessage    `json:"context_schema,omitempty"`
	Execution          ExecutionMode      `json:"execution,omitempty"`
	Trace              TraceLevel         `json:"trace,omitempty"`
	TraceSubprogram    TraceSubprogram    `json:"trace_subprogram,omitempty"`
	Retention          Retention          `json:"retention,omitempty"`
	PromotionAuthority PromotionAuthority `json:"promotion_authority,omitempty"`
}

// Loop holds the Server-selected loop tool names (Part II §5.1, Part III
// §4.3). There is no plan member: the plan rides the validate response.
type Loop struct {
	Validate string `json:"validate"`
	Execute  string `json:"execute,omitempty"`
	// Trace names the trace-fetch tool; present iff trace_fetch is declared.
	Trace string `json:"trace,omitempty"`
}

// Tool returns the loop tool name bound to stage s, or "".
func (l Loop) Tool(s Stage) string {
	switch s {
	case StageValidate:
		return l.Validate
	case StageExecute:
		return l.Execute
	case StageTraceFetch:
		return l.Trace
	}
	return ""
}

// Effective returns the effective capability map of Languages[i] (Part II
// §4.2). It panics when i is out of range, like a slice index.
func (m *Manifest) Effective(i int) CapabilityMap {
	l := m.Languages[i]
	cm := EffectiveCapabilities(m.Capabilities, l.Capabilities)
	cm.Language = l.Name
	return cm
}

// EffectiveFor returns the effective capability map of the Language named
// name, if the manifest has one.
func (m *Manifest) EffectiveFor(name string) (CapabilityMap, bool) {
	for i := range m.Languages {
		if m.Languages[i].Name == name {
			return m.Effective(i), true
		}
	}
	return CapabilityMap{}, false
}

// Language returns the entry named name.
func (m *Manifest) Language(name string) (*Language, bool) {
	for i := range m.Languages {
		if m.Languages[i].Name == name {
			return &m.Languages[i], true
		}
	}
	return nil, false
}

// DecodeManifest decodes a manifest leniently (unknown members ignored,
// unknown enum values kept). It fails only on malformed JSON or a JSON type
// that cannot fit the shape.
func DecodeManifest(b []byte) (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// Version is a Pilotage extension version (Part II §11.1).
type Version struct{ Major, Minor int }

// String formats v as "major.minor".
func (v Version) String() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }

// CurrentVersion is the version this package implements (WireVersion).
var CurrentVersion = Version{1, 1}

// VersionPattern is the pattern of the manifest "pilotage" member. The
// editorial patch number never appears on the wire (Part II §11.1), so
// "1.1.0" is rejected; leading zeros are rejected so that equal versions
// have one spelling.
const VersionPattern = `^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$`

var versionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(VersionPattern) })

// ParseVersion parses "major.minor".
func ParseVersion(s string) (Version, error) {
	m := versionRE().FindStringSubmatch(s)
	if m == nil {
		return Version{}, fmt.Errorf("pilotage version %q is not major.minor", s)
	}
	maj, err1 := strconv.Atoi(m[1])
	min, err2 := strconv.Atoi(m[2])
	if err := errors.Join(err1, err2); err != nil {
		return Version{}, fmt.Errorf("pilotage version %q: %w", s, err)
	}
	return Version{maj, min}, nil
}

// Usable reports whether a Client implementing CurrentVersion may use a
// Server declaring v: a higher major version forbids it (Part II §11.1);
// any minor version is fine thanks to the unknown-member rules.
func (v Version) Usable() bool { return v.Major <= CurrentVersion.Major }

// LanguageID is a parsed Language identifier "family/version" (Part II
// §3.3).
type LanguageID struct{ Family, Version string }

// String formats the identifier.
func (id LanguageID) String() string { return id.Family + "/" + id.Version }

// LanguageIDPattern matches a Language identifier. Part II §3.3 gives the
// form "family/version" and examples whose version parts contain '-' and
// digits (sql/postgres-15); it names exactly two components, so exactly
// one '/' is allowed and both sides must be non-empty. Nothing else is
// restricted because the spec restricts nothing else.
const LanguageIDPattern = `^[^/]+/[^/]+$`

// ParseLanguageID splits "family/version".
func ParseLanguageID(s string) (LanguageID, error) {
	fam, ver, ok := strings.Cut(s, "/")
	if !ok || fam == "" || ver == "" || strings.Contains(ver, "/") {
		return LanguageID{}, fmt.Errorf("language identifier %q is not family/version", s)
	}
	return LanguageID{fam, ver}, nil
}

// ExecutionMode is the Language's execution mode (Part II §5.1, §6.5.7).
type ExecutionMode string

const (
	ExecutionImmediate ExecutionMode = "immediate"
	ExecutionDeploy    ExecutionMode = "deploy"
	ExecutionBoth      ExecutionMode = "both"
)

// ExecutionModes is the closed set of Part II §5.1.
var ExecutionModes = []ExecutionMode{ExecutionImmediate, ExecutionDeploy, ExecutionBoth}

// IsKnown reports membership in ExecutionModes.
func (e ExecutionMode) IsKnown() bool { return slices.Contains(ExecutionModes, e) }

// RunMode is the execute request's `mode` selector, required exactly for a
// Language with execution "both" (Part III §4.4).
type RunMode string

const (
	RunImmediate RunMode = "immediate"
	RunDeploy    RunMode = "deploy"
)

// RunModes is the closed set of Part III §4.4 "mode".
var RunModes = []RunMode{RunImmediate, RunDeploy}

// IsKnown reports membership in RunModes.
func (r RunMode) IsKnown() bool { return slices.Contains(RunModes, r) }

// TraceSubprogram is the sub-program trace behavior (Part II §5.1,
// §5.8.3). Absent means opaque; an unknown value is treated as opaque
// (§1.3).
type TraceSubprogram string

const (
	SubprogramOpaque   TraceSubprogram = "opaque"
	SubprogramExpanded TraceSubprogram = "expanded"
)

// TraceSubprograms is the closed set of Part II §5.1.
var TraceSubprograms = []TraceSubprogram{SubprogramOpaque, SubprogramExpanded}

// IsKnown reports membership in TraceSubprograms.
func (t TraceSubprogram) IsKnown() bool { return slices.Contains(TraceSubprograms, t) }

// Effective applies the default and the §1.3 fallback.
func (t TraceSubprogram) Effective() TraceSubprogram {
	if t == SubprogramExpanded {
		return t
	}
	return SubprogramOpaque
}

// PromotionAuthority is the promoted-program authority model (Part II
// §5.1, §10.4).
type PromotionAuthority string

const (
	AuthorityCaller   PromotionAuthority = "caller"
	AuthorityPromoter PromotionAuthority = "promoter"
)

// PromotionAuthorities is the closed set of Part II §5.1.
var PromotionAuthorities = []PromotionAuthority{AuthorityCaller, AuthorityPromoter}

// IsKnown reports membership in PromotionAuthorities.
func (p PromotionAuthority) IsKnown() bool { return slices.Contains(PromotionAuthorities, p) }

// RequiresApproval reports whether running a promoted program must go
// through the Host gate's approval path: unknown values must be treated
// that way (Part II §1.3).
func (p PromotionAuthority) RequiresApproval() bool { return p != "" && !p.IsKnown() }
