package snapshot

import (
	"sort"

	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// LoopTool is a tool that binds a loop stage for one or more Languages.
type LoopTool struct {
	// Tool is nil when the manifest names a tool that tools/list lacks.
	Tool *Tool
	Name string
	// Stages maps each stage the tool serves to the Languages it serves it
	// for. One tool serving two stages is a defect the rules report.
	Stages map[types.Stage][]*Language
	// Inferred is true when there is no manifest and the stage was read
	// from the tool's program declaration and reserved members.
	Inferred bool
}

// Stage returns the tool's stage when it serves exactly one.
func (lt *LoopTool) Stage() (types.Stage, bool) {
	if len(lt.Stages) != 1 {
		return "", false
	}
	for s := range lt.Stages {
		return s, true
	}
	return "", false
}

// Serves reports whether the tool serves stage s.
func (lt *LoopTool) Serves(s types.Stage) bool {
	_, ok := lt.Stages[s]
	return ok
}

// loopMembers maps the manifest's loop members to stages (Part III §4.3).
var loopMembers = map[string]types.Stage{
	"validate": types.StageValidate,
	"execute":  types.StageExecute,
	"trace":    types.StageTraceFetch,
}

// LoopTools returns the loop tools, sorted by name. With a manifest they are
// the tools its Languages' loop objects name; without one they are inferred
// from tools/list: a tool with a Pilotage program declaration is an execute
// tool when it declares an execute-only reserved member and a validate tool
// otherwise, and a tool declaring run_id and no program is a trace-fetch
// tool.
func (s *Snapshot) LoopTools() []*LoopTool {
	if !s.loopsDone {
		s.loopsDone = true
		s.loops = s.findLoopTools()
	}
	return s.loops
}

func (s *Snapshot) findLoopTools() []*LoopTool {
	byName := map[string]*LoopTool{}
	get := func(name string) *LoopTool {
		lt := byName[name]
		if lt == nil {
			lt = &LoopTool{Name: name, Tool: s.Tool(name), Stages: map[types.Stage][]*Language{}}
			byName[name] = lt
		}
		return lt
	}
	if s.Manifest != nil {
		for _, l := range s.Languages {
			loop := l.Node.Get("loop")
			if !loop.IsObject() {
				continue
			}
			for _, m := range loop.Kids {
				st, ok := loopMembers[m.Key]
				if !ok || m.Kind != source.String || m.Text == "" {
					continue
				}
				lt := get(m.Text)
				lt.Stages[st] = append(lt.Stages[st], l)
			}
		}
	} else {
		for _, t := range s.Tools {
			if st, ok := inferStage(t); ok {
				lt := get(t.Name)
				lt.Inferred = true
				lt.Stages[st] = nil
			}
		}
	}
	out := make([]*LoopTool, 0, len(byName))
	for _, lt := range byName {
		out = append(out, lt)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func inferStage(t *Tool) (types.Stage, bool) {
	props := t.InputSchema.Get("properties")
	if t.Meta.Get(types.MetaKey).IsObject() {
		for _, arg := range []string{types.ArgProgramRef, types.ArgInput, types.ArgTraceLevel, types.ArgExpectedCatalogVersion, types.ArgIdempotencyKey, types.ArgTestRun, types.ArgMode, types.ArgStore} {
			if props.Has(arg) {
				return types.StageExecute, true
			}
		}
		return types.StageValidate, true
	}
	if props.Has(types.ArgRunID) {
		return types.StageTraceFetch, true
	}
	return "", false
}

// ProgramDeclaration returns the tool's Pilotage _meta value (Part III §5),
// or nil.
func (t *Tool) ProgramDeclaration() *source.Node {
	if t == nil {
		return nil
	}
	return t.Meta.Get(types.MetaKey)
}
