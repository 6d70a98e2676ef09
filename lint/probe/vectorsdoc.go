package probe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

//go:generate go run ./internal/vectorsdoc ../../testdata/reference/vectors.json ../../docs/vectors.md

// classTitles heads the sections of docs/vectors.md, in order.
var classTitles = []struct {
	Class       Class
	Title, Lede string
}{
	{ByProbe, "Exercised by `snapshot --probe`", "Sent to every Language that declares what the vector needs; each probe's safety argument is in the README's probe table."},
	{ByProbeRun, "Exercised by `snapshot --probe-run`", "Built around the valid program you give (`--probe-run`, with `--probe-input` and `--probe-context`), always as a test run on a Language that declares `execute.test_run`."},
	{Offline, "Judged offline from any snapshot", "Every snapshot records what these need (the handshake, `tools/list`, the manifest), so the named rules decide them without a probe."},
	{Recorded, "Judged offline from recorded calls", "The named rules decide them from a recorded call (a `--calls` file, a capture, or `--probe-run` with such a program), but the probe cannot write the program the vector needs in the server's Language."},
	{Setup, "Needing a setup no probe may create", "The reason is given per vector; where a rule judges a recorded instance, it is named."},
}

// VectorsMarkdown renders docs/vectors.md from the official vectors file
// and ServerVectors. It fails when the two disagree on the server vectors.
func VectorsMarkdown(vectorsJSON []byte) ([]byte, error) {
	var doc struct {
		Vectors []struct {
			ID          string `json:"id"`
			Requirement string `json:"requirement"`
			Target      string `json:"target"`
		} `json:"vectors"`
	}
	if err := json.Unmarshal(vectorsJSON, &doc); err != nil {
		return nil, err
	}
	req := map[string]string{}
	var official []string
	for _, v := range doc.Vectors {
		if v.Target == "server" {
			official = append(official, v.ID)
			req[v.ID] = v.Requirement
		}
	}
	var ours []string
	for _, vc := range ServerVectors {
		ours = append(ours, vc.ID)
	}
	if strings.Join(official, " ") != strings.Join(ours, " ") {
		return nil, fmt.Errorf("ServerVectors does not list the %d official server vectors in their order", len(official))
	}
	count := map[Class]int{}
	for _, vc := range ServerVectors {
		count[vc.Class]++
	}
	var b bytes.Buffer
	b.WriteString("# The official vectors and pilotage-lint\n\n")
	b.WriteString("Generated from `lint/probe` (ServerVectors and the probe set) and `testdata/reference/vectors.json` by `go generate ./lint/probe`; do not edit by hand.\n\n")
	fmt.Fprintf(&b, "The official conformance vectors hold %d server vectors. `--probe` exercises %d, `--probe-run` %d more, the rules judge %d offline from any snapshot: %d of %d exercised or judged. %d more are judged from recorded calls the probe cannot make, and %d need a setup no probe may create.\n\n",
		len(ServerVectors), count[ByProbe], count[ByProbeRun], count[Offline], count[ByProbe]+count[ByProbeRun]+count[Offline], len(ServerVectors), count[Recorded], count[Setup])
	b.WriteString("The probe coverage line of the text, JSON and HTML reports counts against the same table.\n")
	for _, ct := range classTitles {
		fmt.Fprintf(&b, "\n## %s (%d)\n\n%s\n\n", ct.Title, count[ct.Class], ct.Lede)
		b.WriteString("| Vector | Requirement | Probes | Decided by | Note |\n|---|---|---|---|---|\n")
		for _, vc := range ServerVectors {
			if vc.Class != ct.Class {
				continue
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", vc.ID, req[vc.ID], codeList(ProbesOf(vc.ID)), codeList(vc.Rules), vc.Note)
		}
	}
	b.WriteString("\n## Deliberate differences from the vectors' actions\n\n")
	b.WriteString("A test compares every request a probe sends with the `action` of each vector it exercises (operation, argument names, the kind of program, `repeat`); each difference it finds is one of these, and each of these occurs. `+arg` is an argument the action lacks, `-arg` one the probe leaves out. Under `*` the difference holds for every vector of the probe.\n\n")
	b.WriteString("| Difference | Probes (vector) | Why |\n|---|---|---|\n")
	type group struct {
		what, why string
		who       []string
	}
	var groups []*group
	for _, d := range Differences {
		who := "`" + d.Probe + "`"
		if d.Vector != "*" {
			who += " (`" + d.Vector + "`)"
		}
		if d.Probe == "*" {
			who = "every execute probe"
		}
		i := slices.IndexFunc(groups, func(g *group) bool { return g.what == d.What && g.why == d.Why })
		if i < 0 {
			groups = append(groups, &group{what: d.What, why: d.Why})
			i = len(groups) - 1
		}
		groups[i].who = append(groups[i].who, who)
	}
	for _, g := range groups {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", g.what, strings.Join(g.who, ", "), g.why)
	}
	return b.Bytes(), nil
}

func codeList(xs []string) string {
	if len(xs) == 0 {
		return "—"
	}
	return "`" + strings.Join(xs, "`, `") + "`"
}
