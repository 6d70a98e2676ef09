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

// LoopStage returns the stage a loop member of Pilotage 1.1 binds; ok is
// false for any other member name.
func LoopStage(member string) (types.Stage, bool) {
	st, ok := loopMembers[member]
	return st, ok
}

// LoopTools returns the loop tools, sorted by name: the tools the manifest's
// Languages' loop objects name (Part III §4.3). Without a manifest there are
// none. Argument names and program declarations do not make a loop tool: an
// ordinary tool may take a run_id or a program, and only the loop map says
// which tool serves which stage.
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
	for _, l := range s.Languages {
		loop := l.Node.Get("loop")
		if !loop.IsObject() {
			continue
		}
		for _, m := range loop.Kids() {
			st, ok := loopMembers[m.Key()]
			if !ok || m.Kind != source.String || m.Text() == "" {
				continue
			}
			lt := get(m.Text())
			lt.Stages[st] = append(lt.Stages[st], l)
		}
	}
	out := make([]*LoopTool, 0, len(byName))
	for _, lt := range byName {
		out = append(out, lt)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ProgramDeclaration returns the tool's Pilotage _meta value (Part III §5),
// or nil.
func (t *Tool) ProgramDeclaration() *source.Node {
	if t == nil {
		return nil
	}
	return t.Meta.Get(types.MetaKey)
}
