package manifest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/schemacheck"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// Closed sets of a manifest (Part II §1.3). A value outside the set a
// manifest's own version defines makes Clients fall back, so it silently
// has no effect: a warning. A manifest declaring a later minor version
// than the linter knows may use values that minor added (Part II §11.1:
// minor versions add reserved values), which the linter cannot judge: it
// names them once, at info, in manifest-version-newer.

// laterMinor reports whether manifest m declares a later minor version of
// Pilotage 1 than the one pilotage-lint checks.
func laterMinor(m *source.Node) bool { return rulekit.DeclaresLaterMinor(m) }

// languageSets are the closed-set Language members: the ones that
// condition a capability and the two with a fallback of their own.
var languageSets = []struct {
	member string
	known  func(string) bool
	// conditions is the capability a Client treats as undeclared on an
	// unknown value; "" when the member has a fallback of its own.
	conditions types.CapabilityName
}{
	{"locator", func(s string) bool { return types.Locator(s).IsKnown() }, types.CapValidate},
	{"execution", func(s string) bool { return types.ExecutionMode(s).IsKnown() }, types.CapExecute},
	// "none" is a trace level, refused for an executing Language by
	// manifest-execute-members.
	{"trace", func(s string) bool { return types.TraceLevel(s).IsKnown() || types.TraceLevel(s) == types.TraceNone }, types.CapExecute},
	{"trace_subprogram", func(s string) bool { return types.TraceSubprogram(s).IsKnown() }, ""},
	{"promotion_authority", func(s string) bool { return types.PromotionAuthority(s).IsKnown() }, ""},
}

// unjudged lists, in document order of the checks, the closed-set values
// of manifest m that Pilotage 1.1 does not define.
func unjudged(s *snapshot.Snapshot, m manifestView) []string {
	var out []string
	decls := []*source.Node{m.Node.Get("capabilities")}
	for _, l := range m.Langs {
		decls = append(decls, l.Caps.Lang)
	}
	for _, d := range decls {
		if !d.IsObject() {
			continue
		}
		for _, c := range d.Kids() {
			parent := types.CapabilityName(c.Key())
			if !parent.IsKnown() {
				out = append(out, fmt.Sprintf("capability %q", c.Key()))
				continue
			}
			if c.IsObject() {
				for _, s := range c.Kids() {
					if !types.IsKnownSubFeature(parent, s.Key()) {
						out = append(out, fmt.Sprintf("sub-feature %q of %s", s.Key(), parent))
					}
				}
			}
		}
	}
	for _, l := range m.Langs {
		for _, set := range languageSets {
			if v := l.Node.Get(set.member); v.IsString() && !set.known(v.Text()) {
				out = append(out, fmt.Sprintf("%s %q of Language %s", set.member, v.Text(), l.Label()))
			}
		}
		if v := l.Node.Get("retention"); v.IsString() && retentionWord(v.Text()) {
			out = append(out, fmt.Sprintf("retention %q of Language %s", v.Text(), l.Label()))
		}
		if loop := l.Node.Get("loop"); loop.IsObject() {
			for _, k := range loop.Kids() {
				if !knownLoopMember(k.Key()) {
					out = append(out, fmt.Sprintf("loop member %q of Language %s", k.Key(), l.Label()))
				}
			}
		}
	}
	if m.Node != s.Manifest {
		return out
	}
	if t := s.Tool(types.ToolCatalog); t != nil && t.InputSchema.IsObject() {
		for _, v := range catalogVerbValues(t.InputSchema) {
			if !types.CatalogVerb(v).IsKnown() {
				out = append(out, fmt.Sprintf("%s verb %q", types.ToolCatalog, v))
			}
		}
	}
	// The recorded results answer under the authoritative manifest.
	seen := map[string]bool{}
	for _, rc := range rulekit.Results(s) {
		if k := rc.Content.Path("error", "kind"); rc.RequestError && k.IsString() && !types.ErrorKind(k.Text()).IsKnown() && !seen[k.Text()] {
			seen[k.Text()] = true
			out = append(out, fmt.Sprintf("request-error kind %q", k.Text()))
		}
	}
	for _, v := range rulekit.UnknownResultValues(s) {
		out = append(out, v.What)
	}
	return out
}

// alternativeForms are ISO 8601's alternative duration format, a calendar
// date and optionally a time of day, extended or basic: P0000-00-07T00:00:00,
// P00000007T000000, P0001-02-10, with a fraction on the seconds. Each
// captures years, months, days, hours, minutes, seconds.
var alternativeForms = []*regexp.Regexp{
	regexp.MustCompile(`^P([0-9]{4})-([0-9]{2})-([0-9]{2})(?:T([0-9]{2}):([0-9]{2}):([0-9]{2})([.,][0-9]+)?)?$`),
	regexp.MustCompile(`^P([0-9]{4})([0-9]{2})([0-9]{2})(?:T([0-9]{2})([0-9]{2})([0-9]{2})([.,][0-9]+)?)?$`),
}

// alternativeParts returns the components of an alternative-format
// duration (years to seconds, "" for an absent time), or nil.
func alternativeParts(s string) []string {
	for _, re := range alternativeForms {
		if m := re.FindStringSubmatch(s); m != nil {
			return m[1:]
		}
	}
	return nil
}

// alternativeDuration reports whether s is an ISO 8601 duration in the
// alternative format with its values within the carry-over points (12
// months, 30 days, 24 hours, 60 minutes, 60 seconds).
func alternativeDuration(s string) bool {
	m := alternativeParts(s)
	if m == nil {
		return false
	}
	n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	if n(1) > 12 || n(2) > 30 {
		return false
	}
	return m[3] == "" || n(3) <= 24 && n(4) < 60 && n(5) < 60
}

// designatorForm writes an alternative-format duration with designators,
// leaving out zero components: P0000-00-07T00:00:00 is P7D.
func designatorForm(s string) string {
	m := alternativeParts(s)
	if m == nil {
		return "P7D"
	}
	frac := strings.Replace(m[6], ",", ".", 1)
	var date, tm strings.Builder
	for i, d := range []string{"Y", "M", "D"} {
		if v, _ := strconv.Atoi(m[i]); v != 0 {
			fmt.Fprintf(&date, "%d%s", v, d)
		}
	}
	for i, d := range []string{"H", "M", "S"} {
		v, _ := strconv.Atoi(m[3+i])
		if v != 0 || d == "S" && frac != "" {
			if d == "S" {
				fmt.Fprintf(&tm, "%d%sS", v, frac)
			} else {
				fmt.Fprintf(&tm, "%d%s", v, d)
			}
		}
	}
	switch {
	case date.Len() == 0 && tm.Len() == 0:
		return "PT0S"
	case tm.Len() == 0:
		return "P" + date.String()
	}
	return "P" + date.String() + "T" + tm.String()
}

// catalogVerbValues returns the verbs the catalog tool's input schema
// admits, read as a validator applies it: the string values every enum
// of verb's declarations admits (schemacheck.Resolver.EnumValues), in the
// first enum's order.
func catalogVerbValues(schema *source.Node) []string {
	r := schemacheck.NewResolver(schema)
	values, _ := r.EnumValues(r.Declarations(schema, "verb"))
	var out []string
	for _, v := range values {
		if v.IsString() {
			out = append(out, v.Text())
		}
	}
	return out
}

// retentionWord reports whether s is a retention value a later minor may
// have reserved: a word that is neither a known value nor a duration.
func retentionWord(s string) bool {
	_, err := types.ParseRetention(s)
	return err != nil && rulekit.ReservedWord(s)
}

func valueRules() []*lint.Rule {
	return []*lint.Rule{
		&lint.Rule{
			ID: "manifest-value-unknown", Severity: lint.Warning, Spec: "Part II §1.3, §5.1",
			Quote:   "| A Language-entry field that conditions a capability, including `locator`, `execution`, `trace`, or `retention` | Treat the conditioned capability as undeclared for that Language. |",
			Keyword: "", Policy: lint.PolicyIgnored,
			Summary: "A Language's locator, execution or trace is a string outside the closed set its manifest's version defines.",
			Doc:     "`locator`, `execution` and `trace` condition a capability: a Client that does not recognize the value treats that capability (validate for locator, execute for the others) as undeclared for the Language (Part II §1.3), so the declaration silently has no effect. The quoted fallback binds Clients and no sentence binds the Server, so this is a warning by the severity policy, not an error. A manifest declaring a later minor version may use values that minor added; manifest-version-newer names them instead. A missing member, or one that is not a string, is manifest-locator's and manifest-execute-members' error.",
			Bad:     `{"pilotage": "1.1", "languages": [{"name": "workflow/v1", "locator": "line-column", ... }]}`,
			Good:    `{"pilotage": "1.2", "languages": [{"name": "workflow/v1", "locator": "line-column", ... }]}`,
			Check:   checkValueUnknown,
		},
	}
}

func checkValueUnknown(p *lint.Pass) {
	for _, m := range manifestsOf(p.Snap) {
		if laterMinor(m.Node) {
			continue
		}
		for _, l := range m.Langs {
			for _, set := range languageSets[:3] {
				v := l.Node.Get(set.member)
				if !v.IsString() || set.known(v.Text()) {
					continue
				}
				p.Report(v, "%s of Language %s is %q, which Pilotage %s does not define, so Clients treat %s as undeclared for it (Part II §1.3); use %s", set.member, l.Label(), v.Text(), versionOf(m.Node), set.conditions, knownValues(set.member))
			}
		}
	}
}

// versionOf is the version a manifest declares when it is one the linter
// knows, else the linter's own.
func versionOf(m *source.Node) string {
	if v := m.Get("pilotage"); v.IsString() && classifyVersion(v) == versionOK {
		return v.Text()
	}
	return types.CurrentVersion.String()
}

func knownValues(member string) string {
	switch member {
	case "locator":
		return `"json-pointer" or "text-range"`
	case "execution":
		return `"immediate", "deploy" or "both"`
	}
	return `the highest trace level it supports, "summary" or "full"`
}

// unjudgedNote is the clause manifest-version-newer adds for the values it
// cannot judge.
func unjudgedNote(s *snapshot.Snapshot, m manifestView) string {
	vs := unjudged(s, m)
	if len(vs) == 0 {
		return ""
	}
	return " (here: " + strings.Join(vs, ", ") + ")"
}
