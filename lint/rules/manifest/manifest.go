package manifest

import (
	"net/url"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// manifestView is one manifest object to check with its Language entries.
type manifestView struct {
	Node  *source.Node
	Langs []*snapshot.Language
}

// manifestsOf yields the manifests the 1.1 rules judge: those of
// allManifests that do not declare another major version. A Pilotage 1
// Client MUST NOT use a manifest of another major (Part II §11.1), whose
// rules this linter does not know; manifest-version reports it, once.
func manifestsOf(s *snapshot.Snapshot) []manifestView {
	var out []manifestView
	for _, m := range allManifests(s) {
		if !otherMajor(m.Node) {
			out = append(out, m)
		}
	}
	return out
}

// otherMajor reports whether manifest m declares a well-formed version of
// a major other than 1.
func otherMajor(m *source.Node) bool {
	v, ok := m.Str("pilotage")
	if !ok {
		return false
	}
	ver, ok := rulekit.ParseVersion(v)
	return ok && ver.Major != types.CurrentVersion.Major
}

// allManifests yields the authoritative manifest and, when it is a different
// node, the inline initialize or discover manifest: a Client may read either
// (Part III §3.3), so both are linted as manifests.
func allManifests(s *snapshot.Snapshot) []manifestView {
	var out []manifestView
	if s.Manifest.IsObject() {
		out = append(out, manifestView{s.Manifest, s.Languages})
	}
	if m := s.InlineManifest; m.IsObject() && m != s.Manifest {
		out = append(out, manifestView{m, s.InlineLanguages})
	}
	return out
}

// forEachLanguage calls fn for every Language entry of every manifest.
func forEachLanguage(p *lint.Pass, fn func(l *snapshot.Language)) {
	for _, m := range manifestsOf(p.Snap) {
		for _, l := range m.Langs {
			fn(l)
		}
	}
}

// closedSetRule checks an optional Language member against a closed set,
// wherever it appears: an unknown value makes Clients fall back (Part II
// §1.3), which silently changes what the Language promises.
func closedSetRule(member string, known func(string) bool, fix string) func(*lint.Pass) {
	return func(p *lint.Pass) {
		for _, m := range manifestsOf(p.Snap) {
			later := laterMinor(m.Node)
			for _, l := range m.Langs {
				v := l.Node.Get(member)
				if v == nil || v.IsString() && (known(v.Text()) || later) {
					continue
				}
				p.Report(v, "%s of Language %s is %s, outside its closed set; %s", member, l.Label(), rulekit.QuoteJSON(v), fix)
			}
		}
	}
}

// executeMembers are the Language members that are mandatory exactly when
// execute is declared (Part II §5.1).
var executeMembers = []string{"execution", "trace", "retention"}

// pilotageURIPrefixes maps the resource members of Part III §4 to the
// recommended pilotage:// forms of Part III §8.3.
var pilotageURIPrefixes = []struct{ member, prefix string }{
	{"guides_resource", "pilotage://guides/"},
	{"catalog_resource", "pilotage://catalog/"},
}

// resourceURIProblem returns what is wrong with a pilotage:// resource URI
// for Language name, and the URI to write instead; "" when nothing is. Only
// the Language segment is judged: URIs outside the recommended form are a
// convention the spec does not impose.
func resourceURIProblem(uri, prefix, name string) (problem, fix string) {
	rest, ok := strings.CutPrefix(uri, prefix)
	if !ok || name == "" {
		return "", ""
	}
	fix = prefix + url.PathEscape(name)
	if strings.Contains(name, "/") && (rest == name || strings.HasPrefix(rest, name+"/")) {
		return "spreads the Language over several path segments", fix
	}
	seg, _, _ := strings.Cut(rest, "/")
	if _, err := url.PathUnescape(seg); err != nil {
		return "has a malformed percent-encoding in the Language segment", fix
	}
	return "", ""
}

func manifestRules() []*lint.Rule {
	return []*lint.Rule{
		&lint.Rule{
			ID: "manifest-version", Severity: lint.Error, Spec: "Part II §5.1, §11.1",
			Quote:        "| `pilotage` | string | M | Pilotage extension version in `major.minor` form, as defined in Section 11.1. |",
			Keyword:      "MUST",
			Summary:      "The manifest's pilotage version is missing, not major.minor, or of a major version other than 1.",
			Doc:          "The manifest's `pilotage` member is the authoritative Pilotage version and reads `major.minor`; the editorial patch number never appears on the wire. A Client that meets a higher major version than it implements MUST NOT use Pilotage with the Server, and a value it cannot parse leaves it unable to decide, so the Server is lost to every Pilotage 1 Client.",
			Bad:          `{"pilotage": "1.1.0", "languages": [ ... ]}`,
			Good:         `{"pilotage": "1.1", "languages": [ ... ]}`,
			Scope:        "The pilotage member of the authoritative manifest and of an inline manifest that differs from it: present, a string, major.minor (two numbers; a leading zero is manifest-version-spelling's info) without a patch number, of major 1. A manifest of another major is reported here once and judged by no other manifest rule; a later minor of 1 is manifest-version-newer's info.",
			NoExceptions: "Part II §5.1 and §11.1 and Part III §1.1 were read: the patch number of a document \"never appears on the wire\" (§11.1), a later minor is well formed (and draws manifest-version-newer's info), and a new major comes with its own extension identifier (Part III §1.1), so under this one the manifest declares 1.x; no sentence lets the member be omitted.",
			Check:        checkVersion(versionInvalid),
		},
		&lint.Rule{
			ID: "manifest-version-spelling", Severity: lint.Info, Spec: "Part II §11.1",
			Keyword: "",
			Summary: "The manifest's pilotage version is major.minor written with a leading zero.",
			Doc:     "Part II §11.1 writes the version as major.minor, and this specification defines 1.1. A leading zero (\"1.01\", \"01.1\") still reads as major.minor, the same numbers, and no sentence forbids it, so it is no error; but a Client that compares the string with the versions it knows, or a Host that keys caches by it, may not recognize it. Writing the numbers without leading zeros gives each version one spelling. The version is judged by its numbers: \"1.02\" is a later minor.",
			Bad:     `{"pilotage": "1.01", "languages": [ ... ]}`,
			Good:    `{"pilotage": "1.1", "languages": [ ... ]}`,
			Check:   checkVersionSpelling,
		},
		&lint.Rule{
			ID: "manifest-version-outdated", Severity: lint.Info, Spec: "Part II §11.1",
			Keyword: "",
			Summary: "The manifest declares Pilotage 1.0, the minor version before 1.1.",
			Doc:     "Pilotage 1.1 folded 1.0's separate `explain` operation into the trace layer's fetch door: the capability is `trace_fetch`, its tool is `loop.trace`, and execute gained the `store` flag that decides whether a Run's record is kept for fetching. A manifest still declaring 1.0 tells Clients not to expect these, so a Server that implements them should say 1.1.",
			Bad:     `{"pilotage": "1.0", "languages": [ ... ]}`,
			Good:    `{"pilotage": "1.1", "languages": [ ... ]}`,
			Check:   checkVersion(versionOutdated),
		},
		&lint.Rule{
			ID: "manifest-version-newer", Severity: lint.Info, Spec: "Part II §11.1",
			Keyword: "",
			Summary: "The manifest declares a later minor version of Pilotage 1 than the 1.1 this linter checks.",
			Doc:     "Minor versions are strictly additive, so a 1.1 Client can use a 1.2 Server through the unknown-member and unknown-value fallbacks. pilotage-lint checks against 1.1, however: it reports no value of a closed set that the later minor may have added (capability and sub-feature names, loop members, locator, execution, trace, retention words, trace_subprogram, promotion_authority; pilotage_catalog verbs; in results, request-error kinds, guide levels and catalog change values), and this one finding names the manifest's values it cannot judge. What 1.1 defines keeps its meaning under a later minor, since minor versions are strictly additive: a declared execute still needs its loop.execute, and a 1.1 verb its place in the catalog tool's enum.",
			Bad:     `{"pilotage": "1.2", "languages": [ ... ]}`,
			Good:    `{"pilotage": "1.1", "languages": [ ... ]}`,
			Check:   checkVersion(versionNewer),
		},
		&lint.Rule{
			ID: "manifest-languages-empty", Severity: lint.Error, Spec: "Part II §5.1",
			Quote:        "| `languages` | array of Language entries | M | One entry for each Language exposed by the Server. The array MUST NOT be empty. |",
			Keyword:      "MUST NOT",
			Summary:      "The manifest's languages array is missing or empty.",
			Doc:          "`languages` is mandatory and MUST NOT be empty: a manifest without a Language offers nothing to learn, validate or execute, and a Client has no way to tell it from a broken Server.",
			Bad:          `{"pilotage": "1.1", "languages": []}`,
			Good:         `{"pilotage": "1.1", "languages": [{"name": "workflow/v1", ... }]}`,
			Scope:        "The languages member of every manifest the linter reads, any minor version of 1: present, an array, not empty.",
			NoExceptions: "Part II §1.4 makes an absent and an empty array equivalent only for OPTIONAL array-valued fields, and languages is M with \"The array MUST NOT be empty\"; no other sentence lets a manifest list no Language.",
			Check:        checkLanguagesEmpty,
		},
		&lint.Rule{
			ID: "manifest-language-name", Severity: lint.Error, Spec: "Part II §3.3, §5.1",
			Quote:        "| `name` | string | M | Language identifier defined in Section 3.3. |",
			Keyword:      "MUST",
			Summary:      "A Language entry's name is missing or not a family/version identifier.",
			Doc:          "Every Language entry names its Language with an identifier of the form `family/version`; the version component distinguishes incompatible grammars, and Clients key guide caches by it. Tool arguments (`language`) and program-bearing declarations refer to Languages by this exact string.",
			Bad:          `{"name": "workflow", "title": "Workflows", ... }`,
			Good:         `{"name": "workflow/v1", "title": "Workflows", ... }`,
			Scope:        "The name of every Language entry of every manifest: present, a string, family/version with one slash between two non-empty parts.",
			NoExceptions: "Part II §3.3 defines one form, family/version, with the examples workflow/v1, sql/postgres-15 and automation/1, and no alternative; the rule accepts any non-empty family and version.",
			Check:        checkLanguageName,
		},
		&lint.Rule{
			ID: "manifest-language-duplicate", Severity: lint.Warning, Spec: "Part II §3.3, §5.1",
			Keyword: "", Policy: lint.PolicyIgnored,
			Summary: "Two Language entries carry the same name.",
			Doc:     "The manifest has one entry for each Language, and every later request selects a Language by its identifier. With two entries of the same name a Client cannot tell which capabilities, loop tools or retention apply, and different Clients will pick different entries.",
			Bad:     `{"languages": [{"name": "workflow/v1", ... }, {"name": "workflow/v1", ... }]}`,
			Good:    `{"languages": [{"name": "workflow/v1", ... }, {"name": "workflow/v2", ... }]}`,
			Check:   checkLanguageDuplicate,
		},
		&lint.Rule{
			ID: "manifest-language-title", Severity: lint.Error, Spec: "Part II §5.1",
			Quote:        "| `title` | string | M | Human-readable Language name. |",
			Keyword:      "MUST",
			Summary:      "A Language entry lacks a title, or its title is not a string.",
			Doc:          "`title` is mandatory: it is what a Host shows a person choosing or approving work in a Language, and what an agent reads to match a user's request to a Language. A blank string is present and a string, which is all the M row asks; that it names nothing is manifest-language-title-blank's warning.",
			Bad:          `{"name": "workflow/v1", "guides": "pilotage_get_guide", ... }`,
			Good:         `{"name": "workflow/v1", "title": "Workflow documents", ... }`,
			Scope:        "The title of every Language entry of every manifest: present and a string. A blank string is manifest-language-title-blank's.",
			NoExceptions: "Part II §5.1 marks title M, a string; no sentence makes it optional or conditional, in any minor version.",
			Check:        checkLanguageTitle,
		},
		&lint.Rule{
			ID: "manifest-language-title-blank", Severity: lint.Warning, Spec: "Part II §5.1",
			Quote:   "| `title` | string | M | Human-readable Language name. |",
			Keyword: "", Policy: lint.PolicyContradiction,
			Summary: "A Language entry's title is an empty or blank string.",
			Doc:     "The field table asks for a string, present (M), and describes it as the human-readable Language name; an empty or white-space title satisfies the row but names nothing, so a Host shows a person nothing to choose or approve and an agent nothing to match a request against. The description carries no keyword, so this contradiction of the field's definition is a warning by the severity policy.",
			Bad:     `{"name": "workflow/v1", "title": "", ... }`,
			Good:    `{"name": "workflow/v1", "title": "Workflow documents", ... }`,
			Check:   checkLanguageTitleBlank,
		},
		&lint.Rule{
			ID: "manifest-locator", Severity: lint.Error, Spec: "Part II §5.1, §5.5",
			Quote:        "| `locator` | string | M when `validate` is declared | Diagnostic locator dialect: `\"json-pointer\"` or `\"text-range\"`. |",
			Keyword:      "MUST",
			Summary:      "A validating Language lacks a locator, or its locator is not a string.",
			Doc:          "`locator` names the dialect in which diagnostics point into a program, and is mandatory when `validate` is declared. A Client uses it to map diagnostics back to the text it wrote; with a missing dialect it MUST treat validate as undeclared for the Language (Part II §1.3), which removes the floor every Language needs. A string outside json-pointer and text-range is a value a Client falls back on, reported by manifest-value-unknown.",
			Bad:          `{"name": "workflow/v1", "capabilities": {"validate": true, ... }}   (no locator)`,
			Good:         `{"name": "workflow/v1", "locator": "json-pointer", ... }`,
			Scope:        "Every Language entry whose effective capability map declares validate: locator present; and on any entry, a locator that is not a string. A string outside the 1.1 dialects is manifest-value-unknown's warning, and under a later minor manifest-version-newer's info.",
			NoExceptions: "The quote's own condition (M when validate is declared) is the rule's scope. Part II §1.3's fallback for an unrecognized dialect concerns a value, which this rule does not judge; no sentence lets a validating Language omit its dialect.",
			Check:        checkLocator,
		},
		&lint.Rule{
			ID: "manifest-execute-members", Severity: lint.Error, Spec: "Part II §4.3, §5.1",
			Quote:        "| `execution` | string | M when `execute` is declared | Execution mode: `\"immediate\"`, `\"deploy\"`, or `\"both\"`. |",
			Keyword:      "MUST",
			Summary:      "An executing Language lacks execution, trace or retention, declares trace \"none\", or gives execution or trace a value that is not a string.",
			Doc:          "A Language that declares `execute` MUST say how it runs (`execution`: immediate, deploy or both), the highest trace level it supports (`trace`: summary or full, since there is no execute without trace support) and its Run retention policy (`retention`). A Client reads them to build execute requests and to decide whether a stored trace can be fetched; a missing or unknown value makes it treat execute as undeclared (Part II §1.3). The retention value itself is checked by manifest-retention-format, and an execution or trace string outside its closed set by manifest-value-unknown.",
			Bad:          `{"capabilities": {"execute": true, ... }, "execution": "immediate", "trace": "none"}`,
			Good:         `{"capabilities": {"execute": true, ... }, "execution": "immediate", "trace": "summary", "retention": "PT1H"}`,
			Scope:        "Every Language entry whose effective capability map declares execute: execution, trace and retention present, trace not \"none\"; and on any entry, an execution or trace that is not a string. Unknown strings are manifest-value-unknown's, retention's format manifest-retention-format's.",
			NoExceptions: "Part II §4.3 rule 4 and §5.1 were read: the three members are M when execute is declared, and a Language that declares execute MUST support at least summary traces, so \"none\" is no highest level; no sentence narrows either for a revision or a minor version.",
			Check:        checkExecuteMembers,
		},
		&lint.Rule{
			ID: "manifest-execute-members-without-execute", Severity: lint.Info, Spec: "Part II §4.3, §5.1",
			Keyword: "",
			Summary: "A Language carries execution, trace or retention without declaring execute.",
			Doc:     "`execution`, `trace` and `retention` describe execute and mean nothing without it, and receivers ignore them then. This is advice (info): whether the Server provides what they say is Part II §4.3's truthfulness rule, which a manifest alone cannot decide. Their presence usually means `execute` was forgotten in the capability map (so Clients will never run programs) or was removed without cleaning up.",
			Bad:     `{"capabilities": {"guides": true, "validate": true}, "execution": "immediate", "retention": "PT1H"}`,
			Good:    `{"capabilities": {"guides": true, "validate": true}, "locator": "json-pointer"}`,
			Check:   checkExecuteMembersWithoutExecute,
		},
		&lint.Rule{
			ID: "manifest-retention-format", Severity: lint.Error, Spec: "Part II §5.1, §6.6",
			Quote:   "| `retention` | string | M when `execute` is declared | Run retention policy: `\"none\"`, `\"session\"`, or an ISO 8601 duration. |",
			Keyword: "MUST",
			Summary: "A Language's retention is not none, session or an ISO 8601 duration.",
			Doc:     "Retention governs whether and how long the record of a started Run stays fetchable: `\"none\"`, `\"session\"`, or an ISO 8601 duration such as `PT1H` that is a durability commitment surviving restarts. A value a Client cannot parse is an unknown conditioning value, so it treats execute as undeclared for the Language (Part II §1.3).",
			Bad:     `{"retention": "1h"}`,
			Good:    `{"retention": "PT1H"}`,
			Scope:   "The retention of every Language entry of every manifest: a string that is none, session or an ISO 8601 duration, in the designator format (RFC 3339 Appendix A, with a fraction on the last component) or in ISO 8601's alternative format (PYYYY-MM-DDThh:mm:ss or PYYYYMMDDThhmmss, values within the carry-over points), which the spec's \"an ISO 8601 duration\" does not exclude and which is manifest-retention-alternative-format's warning. Under a later minor a lower-case word is a value that minor may have reserved and is left to manifest-version-newer.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §11.1", Quote: "The unknown-member and unknown-value rules allow an earlier minor Client to interact safely with a later minor Server.", Fixture: "good-later-minor-word"},
				{Spec: "Part II §5.1", Quote: "Run retention policy: `\"none\"`, `\"session\"`, or an ISO 8601 duration.", Fixture: "good-audit-alternative-format"},
			},
			Check: checkRetentionFormat,
		},
		&lint.Rule{
			ID: "manifest-retention-alternative-format", Severity: lint.Warning, Spec: "Part II §1.3, §5.1, §6.6",
			Quote:   "| A Language-entry field that conditions a capability, including `locator`, `execution`, `trace`, or `retention` | Treat the conditioned capability as undeclared for that Language. |",
			Keyword: "", Policy: lint.PolicyIgnored,
			Summary: "A Language's retention is an ISO 8601 duration in the alternative format (P0000-00-07T00:00:00) rather than with designators (P7D).",
			Doc:     "Part II §5.1 asks for \"an ISO 8601 duration\", and ISO 8601 writes a duration with designators (P7D, PT1H) or, by agreement between the parties, in the alternative format of a date and time (P0000-00-07T00:00:00). Nothing in the spec rules the alternative out, so it is no error; but Clients parse the designator form (RFC 3339 Appendix A's grammar, the official schema's pattern), and a Client that cannot parse the value treats execute as undeclared for the Language (Part II §1.3), so the declaration may silently have no effect. Write the same duration with designators.",
			Bad:     `{"retention": "P0000-00-07T00:00:00"}`,
			Good:    `{"retention": "P7D"}`,
			Check:   checkRetentionAlternative,
		},
		&lint.Rule{
			ID: "manifest-trace-subprogram", Severity: lint.Warning, Spec: "Part II §1.3, §5.1, §5.8.3",
			Keyword: "", Policy: lint.PolicyIgnored,
			Summary: "A Language's trace_subprogram is not opaque or expanded.",
			Doc:     "`trace_subprogram` says whether a trace shows the steps of called sub-programs (`expanded`) or only the call (`opaque`, the default). It is a closed set; a Client treats any other value as `opaque`, so a Server that expands sub-programs under an unknown name will have its traces misread.",
			Bad:     `{"trace_subprogram": "inline"}`,
			Good:    `{"trace_subprogram": "expanded"}`,
			Check:   closedSetRule("trace_subprogram", func(s string) bool { return types.TraceSubprogram(s).IsKnown() }, `use "opaque" or "expanded" (Clients read any other value as "opaque")`),
		},
		&lint.Rule{
			ID: "manifest-promotion-authority", Severity: lint.Warning, Spec: "Part II §1.3, §5.1, §10.4",
			Keyword: "", Policy: lint.PolicyIgnored,
			Summary: "A Language's promotion_authority is not caller or promoter.",
			Doc:     "`promotion_authority` says whose authority a promoted program runs with: the caller's (the default) or the promoter's retained authority, a confused-deputy surface a Server MUST declare. It is a closed set; a Client treats any other value as requiring approval for every promoted program.",
			Bad:     `{"promotion_authority": "owner"}`,
			Good:    `{"promotion_authority": "promoter"}`,
			Check:   closedSetRule("promotion_authority", func(s string) bool { return types.PromotionAuthority(s).IsKnown() }, `use "caller" or "promoter" (Clients gate every promoted program for any other value)`),
		},
		&lint.Rule{
			ID: "manifest-guides-reference", Severity: lint.Error, Spec: "Part III §4",
			Quote:        "a Language entry's `guides` field MUST contain: `pilotage_get_guide`",
			Keyword:      "MUST",
			Summary:      "A Language entry's guides reference is missing or is not pilotage_get_guide.",
			Doc:          "In the MCP binding the `guides` member of every Language entry MUST contain exactly `pilotage_get_guide`: the guide tool is the operative path, and the Language is selected through its `language` argument. Any other value, such as a resource URI, sends Clients to a tool that does not exist; a resource belongs in `guides_resource`.",
			Bad:          `{"guides": "pilotage://guides/workflow%2Fv1"}`,
			Good:         `{"guides": "pilotage_get_guide", "guides_resource": "pilotage://guides/workflow%2Fv1"}`,
			Scope:        "The guides member of every Language entry of every manifest: present and exactly pilotage_get_guide.",
			NoExceptions: "Part III §4 (manifest reference-field binding) and Part II §5.1 were read: guides is M and in this binding MUST contain pilotage_get_guide; the optional guides_resource is a separate member and narrows nothing.",
			Check:        checkGuidesReference,
		},
		&lint.Rule{
			ID: "manifest-catalog-reference", Severity: lint.Error, Spec: "Part II §4.3, §5.1; Part III §4",
			Quote:        "a Language entry's `catalog` field MUST contain: `pilotage_catalog`",
			Keyword:      "MUST",
			Summary:      "A Language entry's catalog reference is not present exactly when catalog is declared, or is not pilotage_catalog.",
			Doc:          "The `catalog` member MUST be present if and only if the Language's effective capability map declares `catalog`, and in the MCP binding it MUST contain exactly `pilotage_catalog`. A reference without the capability, or a capability without the reference, is an inconsistent manifest that a Client MAY refuse outright.",
			Bad:          `{"capabilities": {"catalog": true, ... }, "catalog": "catalog_tool"}`,
			Good:         `{"capabilities": {"catalog": true, ... }, "catalog": "pilotage_catalog"}`,
			Scope:        "The catalog member of every Language entry: present if and only if the effective capability map declares catalog (not judged for an entry with no capability declaration at all, which capability-declaration-missing reports), and then exactly pilotage_catalog.",
			NoExceptions: "Part II §4.3 rule 7 and §5.1 and Part III §4 were read: the reference is present if and only if catalog is declared and contains pilotage_catalog; catalog_resource is a separate optional member and narrows nothing.",
			Check:        checkCatalogReference,
		},
		&lint.Rule{
			ID: "manifest-resource-uri-encoding", Severity: lint.Error, Spec: "Part III §8.3",
			Quote:   "In particular, `/` MUST become `%2F`.",
			Keyword: "MUST",
			Summary: "A pilotage:// guides or catalog resource URI does not percent-encode the Language as one path segment.",
			Doc:     "In the recommended `pilotage://guides/{language}` and `pilotage://catalog/{language}` forms, the Language identifier is percent-encoded as one RFC 3986 path segment, so its `/` MUST become `%2F`. Left unencoded, `pilotage://guides/workflow/v1` reads as guide `v1` of a Language `workflow`, the form `pilotage://guides/{language}/{id}` reserves.",
			Bad:     `{"name": "workflow/v1", "guides_resource": "pilotage://guides/workflow/v1"}`,
			Good:    `{"name": "workflow/v1", "guides_resource": "pilotage://guides/workflow%2Fv1"}`,
			Scope:   "guides_resource and catalog_resource of every Language entry that use the recommended pilotage://guides/ and pilotage://catalog/ forms: the Language must be one percent-encoded path segment. Any other URI is left alone, and percent-encoding is compared without regard to hex case (RFC 3986).",
			Exceptions: []lint.Exception{
				{Spec: "Part III §8.3", Quote: "Recommended URI forms are:", Fixture: "good-other-form"},
			},
			Check: checkResourceURIEncoding,
		},
		&lint.Rule{
			ID: "manifest-stateless-session-retention", Severity: lint.Error, Spec: "Part III §8.1, §10.1",
			Quote:   "A stateless Server MUST NOT declare: { \"retention\": \"session\" }",
			Keyword: "MUST NOT",
			Summary: "A Server shown to serve only the stateless MCP revision declares retention \"session\".",
			Doc:     "The stateless MCP revision 2026-07-28 has no Session, so `\"session\"` retention promises nothing: a Client could never fetch a stored Run. A stateless Server MUST declare an ISO 8601 duration or `\"none\"` (Part III §8.1, §10.1 item 11). The input shows a stateless deployment when its server/discover result lists only revisions from 2026-07-28 on (supportedVersions) and no initialize result is recorded. A recording made on 2026-07-28 from a server that also lists the handshake revisions, whose Sessions give \"session\" a meaning, or that does not say which revisions it serves, shows no stateless deployment: manifest-stateless-session-retention-inferred warns there.",
			Bad:     `{"discover": {"supportedVersions": ["2026-07-28"], ... }, "manifest": {"languages": [{"retention": "session", ... }]}}`,
			Good:    `{"discover": {"supportedVersions": ["2026-07-28"], ... }, "manifest": {"languages": [{"retention": "PT1H", ... }]}}`,
			Scope:   "The retention of every Language entry when the input shows a stateless deployment: a server/discover result whose supportedVersions lists only revisions from 2026-07-28 on, and no initialize result. A recording on the stateless revision that does not show the deployment serves it alone is manifest-stateless-session-retention-inferred's; without any handshake result it is a skipped check.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §8.1", Quote: "For stdio, this binding defines the Session as the lifetime of the Server process serving the connection.", Fixture: "good-initialize"},
				{Spec: "Part III §8.1", Quote: "A stateless deployment has no Session.", Fixture: "good-audit-handshake-revisions-too"},
			},
			Check: checkStatelessSessionRetention,
		},
		&lint.Rule{
			ID: "manifest-stateless-session-retention-inferred", Severity: lint.Warning, Spec: "Part III §8.1, §10.1",
			Quote:   "A stateless Server MUST NOT declare: { \"retention\": \"session\" }",
			Keyword: "MUST NOT",
			Summary: "A manifest recorded on the stateless MCP revision declares retention \"session\", from a server not shown to serve that revision alone.",
			Doc:     "A recording made on the stateless MCP revision 2026-07-28 (it says so, or it holds a server/discover result and no initialize result) got a manifest declaring `\"session\"` retention. If the deployment is stateless, Part III §8.1 forbids that: a stateless deployment has no Session, so a Client could never fetch a stored Run. The recording does not show it: the server's supportedVersions also lists handshake revisions, whose Sessions give \"session\" a meaning, or says nothing. That the deployment is stateless is an inference, so this is a warning, and the message says what was inferred. Serve stateless Clients a duration or \"none\".",
			Bad:     `{"discover": {"supportedVersions": ["2025-11-25", "2026-07-28"], ... }, "manifest": {"languages": [{"retention": "session", ... }]}}`,
			Good:    `{"discover": {"supportedVersions": ["2025-11-25", "2026-07-28"], ... }, "manifest": {"languages": [{"retention": "PT1H", ... }]}}`,
			Check:   checkStatelessSessionRetentionInferred,
		},
	}
}

// versionClass sorts a manifest's "pilotage" value into the three version
// rules, so that each value draws at most one of them.
type versionClass int

const (
	versionOK versionClass = iota
	versionInvalid
	versionOutdated
	versionNewer
)

func classifyVersion(v *source.Node) versionClass {
	if !v.IsString() {
		return versionInvalid
	}
	ver, ok := rulekit.ParseVersion(v.Text())
	switch {
	case !ok || ver.Major != 1:
		return versionInvalid
	case ver.Minor == 0:
		return versionOutdated
	case ver.Minor > types.CurrentVersion.Minor:
		return versionNewer
	}
	return versionOK
}

func checkVersion(class versionClass) func(*lint.Pass) {
	return func(p *lint.Pass) {
		for _, m := range allManifests(p.Snap) {
			v := m.Node.Get("pilotage")
			if v == nil {
				if class == versionInvalid {
					p.ReportMissing(m.Node, `the manifest lacks "pilotage"; add "pilotage": "1.1"`)
				}
				continue
			}
			if classifyVersion(v) != class {
				continue
			}
			ver, ok := rulekit.ParseVersion(v.Text())
			switch {
			case !v.IsString():
				p.Report(v, `"pilotage" is %s, not a string; write "pilotage": "1.1"`, rulekit.QuoteJSON(v))
			case !ok:
				p.Report(v, `pilotage %q is not in major.minor form (two numbers, no patch number); write "1.1"`, v.Text())
			case ver.Major != 1:
				p.Report(v, `pilotage %q declares major version %d, which a Pilotage 1 Client MUST NOT use and whose rules pilotage-lint does not know, so nothing else in this manifest was judged; a new major also has its own extension identifier (Part III §1.1), so under %s declare "1.1"`, v.Text(), ver.Major, types.ExtensionID)
			case class == versionOutdated:
				p.Report(v, `pilotage %q predates 1.1, which folded the explain operation into the trace fetch door (capability trace_fetch, loop member trace) and added execute's store flag; declare "1.1" and use those names`, v.Text())
			default:
				p.Report(v, `pilotage %q is a later minor version than the 1.1 pilotage-lint checks, so values of closed sets that minor may add are not judged%s`, v.Text(), unjudgedNote(p.Snap, m))
			}
		}
	}
}

func checkVersionSpelling(p *lint.Pass) {
	for _, m := range allManifests(p.Snap) {
		v := m.Node.Get("pilotage")
		if !v.IsString() {
			continue
		}
		ver, ok := rulekit.ParseVersion(v.Text())
		if _, err := types.ParseVersion(v.Text()); err == nil || !ok {
			continue
		}
		p.Report(v, "pilotage %q is major.minor with a leading zero, which reads as %s but which a Client comparing the string may not recognize; write %q", v.Text(), ver, ver.String())
	}
}

func checkLanguagesEmpty(p *lint.Pass) {
	for _, m := range manifestsOf(p.Snap) {
		v := m.Node.Get("languages")
		switch {
		case v == nil:
			p.ReportMissing(m.Node, `the manifest lacks "languages"; add one Language entry for each Language the Server exposes`)
		case !v.IsArray():
			p.Report(v, `"languages" is %s, not an array; make it an array with one Language entry for each Language`, rulekit.QuoteJSON(v))
		case len(v.Kids()) == 0:
			p.Report(v, `"languages" is empty; a manifest MUST list at least one Language entry`)
		}
	}
}

func checkLanguageName(p *lint.Pass) {
	forEachLanguage(p, func(l *snapshot.Language) {
		v := l.Node.Get("name")
		switch {
		case v == nil:
			p.ReportMissing(l.Node, `Language entry %s lacks "name"; add its family/version identifier, such as "workflow/v1"`, l.Label())
		case !v.IsString():
			p.Report(v, `Language name is %s, not a string; write a family/version identifier such as "workflow/v1"`, rulekit.QuoteJSON(v))
		default:
			if _, err := types.ParseLanguageID(v.Text()); err != nil {
				p.Report(v, `Language name %q is not family/version (one "/" with text on both sides); rename it, for example to %q`, v.Text(), suggestLanguageID(v.Text()))
			}
		}
	})
}

// suggestLanguageID proposes a family/version form for a malformed name.
func suggestLanguageID(s string) string {
	fam, _, _ := strings.Cut(strings.Trim(s, "/"), "/")
	if fam == "" {
		fam = "workflow"
	}
	return fam + "/v1"
}

func checkLanguageDuplicate(p *lint.Pass) {
	for _, m := range manifestsOf(p.Snap) {
		first := map[string]*snapshot.Language{}
		for _, l := range m.Langs {
			if l.Name == "" {
				continue
			}
			if f := first[l.Name]; f != nil {
				p.Report(l.Node.Get("name"), "Language name %q is already used by languages[%d]; give each Language entry its own identifier or merge the entries", l.Name, f.Index)
				continue
			}
			first[l.Name] = l
		}
	}
}

func checkLanguageTitle(p *lint.Pass) {
	forEachLanguage(p, func(l *snapshot.Language) {
		v := l.Node.Get("title")
		switch {
		case v == nil:
			p.ReportMissing(l.Node, `Language %s lacks "title"; add a human-readable name for it`, l.Label())
		case !v.IsString():
			p.Report(v, `the title of Language %s is %s, not a string; write a human-readable name`, l.Label(), rulekit.QuoteJSON(v))
		}
	})
}

func checkLanguageTitleBlank(p *lint.Pass) {
	forEachLanguage(p, func(l *snapshot.Language) {
		if v := l.Node.Get("title"); v.IsString() && strings.TrimSpace(v.Text()) == "" {
			p.Report(v, `the title of Language %s is blank, so it names nothing a person or an agent can recognize; write a human-readable name`, l.Label())
		}
	})
}

func checkLocator(p *lint.Pass) {
	forEachLanguage(p, func(l *snapshot.Language) {
		v := l.Node.Get("locator")
		switch {
		case v == nil:
			if l.Caps.Declared(string(types.CapValidate)) {
				p.ReportMissing(l.Node, `Language %s declares validate but has no "locator"; add "locator": "json-pointer" or "text-range"`, l.Label())
			}
		case !v.IsString():
			// An unknown string is manifest-value-unknown's.
			p.Report(v, `locator of Language %s is %s, not a diagnostic locator dialect; use "json-pointer" or "text-range"`, l.Label(), rulekit.QuoteJSON(v))
		}
	})
}

func checkExecuteMembers(p *lint.Pass) {
	forEachLanguage(p, func(l *snapshot.Language) {
		if l.Caps.Declared(string(types.CapExecute)) {
			for _, m := range executeMembers {
				if !l.Node.Has(m) {
					p.ReportMissing(l.Node, "Language %s declares execute but has no %q; add it (%s)", l.Label(), m, executeMemberHint(m))
				}
			}
		}
		// An unknown string is manifest-value-unknown's.
		if v := l.Node.Get("execution"); v != nil && !v.IsString() {
			p.Report(v, `execution of Language %s is %s, not an execution mode; use "immediate", "deploy" or "both"`, l.Label(), rulekit.QuoteJSON(v))
		}
		if v := l.Node.Get("trace"); v != nil && (!v.IsString() || types.TraceLevel(v.Text()) == types.TraceNone) {
			if v.IsString() {
				p.Report(v, `trace of Language %s is "none", but an executing Language MUST support at least summary traces; declare "summary" or "full"`, l.Label())
			} else {
				p.Report(v, `trace of Language %s is %s, not a trace level; declare the highest level it supports, "summary" or "full"`, l.Label(), rulekit.QuoteJSON(v))
			}
		}
	})
}

func executeMemberHint(m string) string {
	switch m {
	case "execution":
		return `"immediate", "deploy" or "both"`
	case "trace":
		return `"summary" or "full"`
	}
	return `"none", "session" or an ISO 8601 duration such as "PT1H"`
}

func checkExecuteMembersWithoutExecute(p *lint.Pass) {
	forEachLanguage(p, func(l *snapshot.Language) {
		// Without any declaration capability-declaration-missing speaks.
		if !l.Caps.Exists() || l.Caps.Declared(string(types.CapExecute)) {
			return
		}
		for _, m := range executeMembers {
			if v := l.Node.Get(m); v != nil {
				p.ReportKey(v, "Language %s has %q but does not declare execute, so it promises nothing; declare execute or remove %q", l.Label(), m, m)
			}
		}
	})
}

func checkRetentionFormat(p *lint.Pass) {
	for _, m := range manifestsOf(p.Snap) {
		later := laterMinor(m.Node)
		for _, l := range m.Langs {
			checkRetention(p, l, later)
		}
	}
}

func checkRetention(p *lint.Pass, l *snapshot.Language, later bool) {
	{
		v := l.Node.Get("retention")
		if v == nil || later && v.IsString() && retentionWord(v.Text()) {
			return
		}
		if !v.IsString() {
			p.Report(v, `retention of Language %s is %s; write "none", "session" or an ISO 8601 duration such as "PT1H"`, l.Label(), rulekit.QuoteJSON(v))
			return
		}
		// ISO 8601's alternative format is a duration too, one Clients
		// may not parse: manifest-retention-alternative-format's warning.
		if _, err := types.ParseRetention(v.Text()); err == nil || alternativeDuration(v.Text()) {
			return
		}
		if up := strings.ToUpper(v.Text()); up != v.Text() {
			if _, err := types.ParseRetention(up); err == nil {
				p.Report(v, "retention %q of Language %s is not an ISO 8601 duration, whose designators are upper case; write %q", v.Text(), l.Label(), up)
				return
			}
		}
		p.Report(v, `retention %q of Language %s is not "none", "session" or an ISO 8601 duration; write one, such as "PT1H" or "P7D"`, v.Text(), l.Label())
	}
}

func checkRetentionAlternative(p *lint.Pass) {
	forEachLanguage(p, func(l *snapshot.Language) {
		v := l.Node.Get("retention")
		if !v.IsString() || !alternativeDuration(v.Text()) {
			return
		}
		p.Report(v, "retention %q of Language %s is an ISO 8601 duration in the alternative format, which a Client reading only the designator form cannot parse, and then treats execute as undeclared; write it with designators: %q", v.Text(), l.Label(), designatorForm(v.Text()))
	})
}

func checkGuidesReference(p *lint.Pass) {
	forEachLanguage(p, func(l *snapshot.Language) {
		v := l.Node.Get("guides")
		switch {
		case v == nil:
			p.ReportMissing(l.Node, `Language %s lacks "guides"; add "guides": %q`, l.Label(), types.ToolGetGuide)
		case !v.IsString() || v.Text() != types.ToolGetGuide:
			hint := ""
			if v.IsString() && strings.Contains(v.Text(), "://") {
				hint = " and move the URI to guides_resource"
			}
			p.Report(v, "guides of Language %s is %s, but the MCP binding requires exactly %q; write that%s", l.Label(), rulekit.QuoteJSON(v), types.ToolGetGuide, hint)
		}
	})
}

func checkCatalogReference(p *lint.Pass) {
	forEachLanguage(p, func(l *snapshot.Language) {
		v := l.Node.Get("catalog")
		declared := l.Caps.Declared(string(types.CapCatalog))
		switch {
		case v == nil:
			if declared {
				p.ReportMissing(l.Node, `Language %s declares catalog but has no "catalog" reference; add "catalog": %q`, l.Label(), types.ToolCatalog)
			}
		case !declared && l.Caps.Exists():
			p.ReportKey(v, `Language %s has a "catalog" reference but does not declare the catalog capability; declare catalog or remove the reference`, l.Label())
		case !v.IsString() || v.Text() != types.ToolCatalog:
			hint := ""
			if v.IsString() && strings.Contains(v.Text(), "://") {
				hint = " and move the URI to catalog_resource"
			}
			p.Report(v, "catalog of Language %s is %s, but the MCP binding requires exactly %q; write that%s", l.Label(), rulekit.QuoteJSON(v), types.ToolCatalog, hint)
		}
	})
}

func checkResourceURIEncoding(p *lint.Pass) {
	forEachLanguage(p, func(l *snapshot.Language) {
		for _, r := range pilotageURIPrefixes {
			v := l.Node.Get(r.member)
			if !v.IsString() {
				continue
			}
			if problem, fix := resourceURIProblem(v.Text(), r.prefix, l.Name); problem != "" {
				p.Report(v, "%s %q %s, but the Language MUST be one percent-encoded path segment (\"/\" as %%2F); write %q", r.member, v.Text(), problem, fix)
			}
		}
	})
}

func checkStatelessSessionRetention(p *lint.Pass) {
	known := p.Snap.Revision != "" || p.Snap.Initialize != nil || p.Snap.Discover != nil
	shown, _ := statelessDeployment(p.Snap)
	forEachLanguage(p, func(l *snapshot.Language) {
		v := l.Node.Get("retention")
		if !v.IsString() || types.Retention(v.Text()) != types.RetentionSession {
			return
		}
		switch {
		case shown:
			p.Report(v, `retention "session" of Language %s is not allowed on a stateless deployment, which has no Session: the server lists only the stateless MCP revision 2026-07-28; declare an ISO 8601 duration or "none"`, l.Label())
		case !known:
			p.Skip(`retention "session" against the MCP revision (no initialize or server/discover result)`)
		}
	})
}

func checkStatelessSessionRetentionInferred(p *lint.Pass) {
	shown, listed := statelessDeployment(p.Snap)
	if shown || !p.Snap.Stateless() {
		return
	}
	why := "the recording does not say which revisions the server serves"
	if len(listed) > 0 {
		why = "the server also lists " + strings.Join(listed, ", ") + ", whose Sessions give \"session\" a meaning"
	}
	forEachLanguage(p, func(l *snapshot.Language) {
		v := l.Node.Get("retention")
		if !v.IsString() || types.Retention(v.Text()) != types.RetentionSession {
			return
		}
		p.Report(v, `retention "session" of Language %s was served on the stateless MCP revision 2026-07-28, which has no Session, and %s (inferred: the deployment is stateless, where Part III §8.1 forbids "session"); serve stateless Clients an ISO 8601 duration or "none"`, l.Label(), why)
	})
}

// statelessDeployment reports whether the input shows a stateless
// deployment: a server/discover result whose supportedVersions lists only
// revisions from 2026-07-28 on, and no initialize result. Otherwise it
// returns the handshake revisions the discover result lists, if any.
func statelessDeployment(s *snapshot.Snapshot) (shown bool, handshake []string) {
	if s.Discover == nil || s.Initialize != nil {
		return false, nil
	}
	vs := s.Discover.Get("supportedVersions")
	if !vs.IsArray() || len(vs.Kids()) == 0 {
		return false, nil
	}
	for _, v := range vs.Kids() {
		if !v.IsString() {
			return false, nil
		}
		// Revisions are dates, so they compare as strings.
		if v.Text() < types.RevisionStateless {
			handshake = append(handshake, v.Text())
		}
	}
	return len(handshake) == 0, handshake
}
