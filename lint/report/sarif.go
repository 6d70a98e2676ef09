package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
)

// RulesDocURL is where each rule is documented; a rule's anchor is its ID.
// SARIF viewers such as GitHub code scanning link to it from every alert.
const RulesDocURL = "https://github.com/pilotagekit/pilotagekit/blob/main/docs/rules.md"

// InformationURI is the tool's home page in SARIF.
const InformationURI = "https://github.com/pilotagekit/pilotagekit"

// SARIFSrcRoot is the uriBaseId of every artifact location: paths are
// relative to the base directory (--base-dir, the working directory by
// default), which a consumer such as GitHub maps to the repository root.
const SARIFSrcRoot = "%SRCROOT%"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name"`
	ShortDescription     sarifText      `json:"shortDescription"`
	FullDescription      sarifText      `json:"fullDescription"`
	HelpURI              string         `json:"helpUri"`
	Help                 sarifText      `json:"help"`
	DefaultConfiguration sarifConfig    `json:"defaultConfiguration"`
	Properties           sarifRuleProps `json:"properties"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifRuleProps struct {
	Tags []string `json:"tags"`
	Spec string   `json:"spec"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          sarifResultProps  `json:"properties"`
}

type sarifResultProps struct {
	Pointer string `json:"pointer"`
	Spec    string `json:"spec"`
	// Probe and Vector name the probe call the result lies in, if any.
	Probe  string `json:"probe,omitempty"`
	Vector string `json:"vector,omitempty"`
}

type sarifLocation struct {
	// ID numbers a related location within its result (SARIF §3.28.2).
	ID               *int           `json:"id,omitempty"`
	PhysicalLocation sarifPhysical  `json:"physicalLocation"`
	LogicalLocations []sarifLogical `json:"logicalLocations,omitempty"`
	Message          *sarifText     `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

type sarifLogical struct {
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

// SARIFLevel maps a severity to a SARIF result level.
func SARIFLevel(s lint.Severity) string {
	switch s {
	case lint.Error:
		return "error"
	case lint.Warning:
		return "warning"
	}
	return "note"
}

// SARIF prints a SARIF 2.1.0 log with one run: the driver describes every
// rule that ran, with its effective severity as the default level, so a
// viewer can show the rule's documentation beside each result.
func SARIF(w io.Writer, run *Run) error {
	driver := sarifDriver{Name: run.Tool.Name, Version: numericVersion(run.Tool.Version), InformationURI: InformationURI, Rules: []sarifRule{}}
	index := map[string]int{}
	addRule := func(r *lint.Rule) {
		if _, ok := index[r.ID]; ok {
			return
		}
		index[r.ID] = len(driver.Rules)
		driver.Rules = append(driver.Rules, sarifRuleOf(r))
	}
	for _, r := range run.Rules {
		addRule(r)
	}
	results := []sarifResult{}
	probes := run.probeIndex()
	for _, f := range run.Result.Findings {
		if _, ok := index[f.Rule]; !ok {
			// The engine may report a rule the caller did not list (such
			// as input-kind); a result must still resolve its ruleIndex.
			addRule(&lint.Rule{ID: f.Rule, Severity: f.Severity, Spec: f.Spec, Summary: f.Rule})
		}
		loc := sarifLocation{PhysicalLocation: sarifPhysical{
			ArtifactLocation: artifactOf(f.File, run.BaseDir),
			Region:           sarifRegion{f.Line, f.Column, f.EndLine, f.EndColumn},
		}}
		if f.Pointer != "" {
			loc.LogicalLocations = []sarifLogical{{FullyQualifiedName: f.Pointer, Kind: "value"}}
		}
		var related []sarifLocation
		for i, r := range f.Related {
			rl := sarifLocation{ID: &i, PhysicalLocation: sarifPhysical{
				ArtifactLocation: artifactOf(r.File, run.BaseDir),
				Region:           sarifRegion{r.Line, r.Column, r.EndLine, r.EndColumn},
			}, Message: &sarifText{Text: r.Message}}
			if r.Pointer != "" {
				rl.LogicalLocations = []sarifLogical{{FullyQualifiedName: r.Pointer, Kind: "value"}}
			}
			related = append(related, rl)
		}
		props := sarifResultProps{Pointer: f.Pointer, Spec: f.Spec}
		if c := probes.of(f); c != nil {
			props.Probe, props.Vector = c.Probe.Name, c.Probe.Vector
		}
		results = append(results, sarifResult{
			RelatedLocations: related,
			RuleID:           f.Rule,
			RuleIndex:        index[f.Rule],
			Level:            SARIFLevel(f.Severity),
			Message:          sarifText{Text: f.Message + " (" + f.Spec + ")"},
			Locations:        []sarifLocation{loc},
			// The pointer survives edits that move lines, so alerts keep
			// their identity across commits the way a baseline does.
			PartialFingerprints: map[string]string{"pilotagePointer/v1": fingerprint(f)},
			Properties:          props,
		})
	}
	log := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs: []sarifRun{{
			Tool:       sarifTool{Driver: driver},
			ColumnKind: "unicodeCodePoints",
			Results:    results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(log)
}

func sarifRuleOf(r *lint.Rule) sarifRule {
	full := r.Doc
	if full == "" {
		full = r.Summary
	}
	help := sarifText{Text: full + " See " + RulesDocURL + "#" + r.ID + "."}
	var md strings.Builder
	md.WriteString(r.Summary + " Enforces " + r.Spec + ".\n\n" + full + "\n")
	if r.Bad != "" {
		md.WriteString("\nBad:\n\n```json\n" + strings.TrimSpace(r.Bad) + "\n```\n")
	}
	if r.Good != "" {
		md.WriteString("\nGood:\n\n```json\n" + strings.TrimSpace(r.Good) + "\n```\n")
	}
	md.WriteString("\n[Rule reference](" + RulesDocURL + "#" + r.ID + ")\n")
	help.Markdown = md.String()
	// The rule table sets Family; a rule made up for an unlisted finding
	// has none, and its ID's first word stands in.
	family := r.Family
	if family == "" {
		family, _, _ = strings.Cut(r.ID, "-")
	}
	return sarifRule{
		ID:                   r.ID,
		Name:                 pascal(r.ID),
		ShortDescription:     sarifText{Text: r.Summary},
		FullDescription:      sarifText{Text: full},
		HelpURI:              RulesDocURL + "#" + r.ID,
		Help:                 help,
		DefaultConfiguration: sarifConfig{Level: SARIFLevel(r.Severity)},
		Properties:           sarifRuleProps{Tags: []string{"pilotage", family}, Spec: r.Spec},
	}
}

// numericVersion drops Go's "v" prefix and makes a development build's
// "devel" a semver pre-release, since SARIF validators (SARIF2005) and
// GitHub expect a version that starts with a number.
func numericVersion(v string) string {
	v = strings.TrimPrefix(v, "v")
	if v == "" || v[0] < '0' || v[0] > '9' {
		v = "0.0.0-" + v
	}
	return v
}

// pascal turns a kebab-case ID into the PascalCase name SARIF viewers
// expect in reportingDescriptor.name (json-duplicate-key -> JsonDuplicateKey).
func pascal(id string) string {
	var b strings.Builder
	for _, part := range strings.Split(id, "-") {
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

// fingerprint identifies a finding by what a baseline matches on: rule,
// file and pointer, never the line.
func fingerprint(f lint.Finding) string {
	h := sha256.Sum256([]byte(f.Rule + "\x00" + filepath.ToSlash(f.File) + "\x00" + f.Pointer))
	return hex.EncodeToString(h[:16])
}

// relPath returns file relative to base with forward slashes, and whether
// it lies inside base. Without a base, a relative name is taken as it is.
func relPath(file, base string) (string, bool) {
	if base == "" {
		return filepath.ToSlash(file), !filepath.IsAbs(file)
	}
	ab, err1 := filepath.Abs(base)
	af, err2 := filepath.Abs(file)
	if err1 != nil || err2 != nil {
		return filepath.ToSlash(file), false
	}
	r, err := filepath.Rel(ab, af)
	if err != nil {
		return filepath.ToSlash(file), false
	}
	r = filepath.ToSlash(r)
	return r, r != ".." && !strings.HasPrefix(r, "../")
}

// artifactOf makes a file name a URI relative to base, or an absolute file
// URI when the file lies outside it.
func artifactOf(file, base string) sarifArtifact {
	rel, inside := relPath(file, base)
	if !inside {
		if abs, err := filepath.Abs(file); err == nil {
			return sarifArtifact{URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()}
		}
	}
	return sarifArtifact{URI: (&url.URL{Path: rel}).String(), URIBaseID: SARIFSrcRoot}
}
