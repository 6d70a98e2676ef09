package rawserver

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Bounds of lumen/1 (Part II §10.1), listed in the closed-sets guide.
const (
	maxSceneBytes    = 64 << 10
	maxDeclaredSteps = 100
	maxDepth         = 8
	maxTimes         = 50
	maxExecuted      = 200
)

type cond struct {
	op   string
	a, b any
}

type step struct {
	id, kind, target, action string
	with                     map[string]any
	when                     cond
	then, els, body          []*step
	times                    int
	value                    any
}

type scene struct {
	steps     []*step
	input     map[string]string
	output    map[string]any
	hasOutput bool
	trigger   string
}

// diagnostics is the validator's finding list (Part II §5.5).
type diagnostics []map[string]any

func (d *diagnostics) add(severity, code, path, message, hint string) {
	m := obj("severity", severity, "code", code, "path", path, "message", message)
	if hint != "" {
		m["hint"] = hint
	}
	*d = append(*d, m)
}

func (d diagnostics) hasError() bool {
	for _, x := range d {
		if x["severity"] == "error" {
			return true
		}
	}
	return false
}

func (d diagnostics) list() []any {
	out := make([]any, len(d))
	for i, x := range d {
		out[i] = x
	}
	return out
}

func ptrEsc(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

type validator struct {
	entries map[string]map[string]any
	diags   diagnostics
	ids     map[string]bool
	defined map[string]bool
	loops   []string
	count   int
	sc      *scene
	gen     func(pos string) string // names steps without id
	bounds  string
}

func indexEntries(es []map[string]any) map[string]map[string]any {
	m := make(map[string]map[string]any, len(es))
	for _, e := range es {
		m[e["id"].(string)] = e
	}
	return m
}

// validateScene checks a scene as lumen_validate and the execute guard do,
// side-effect free. It returns the parsed scene (nil when there are error
// diagnostics), the diagnostics, and a non-empty bound message when a
// validation bound was exceeded.
func validateScene(prog any, entries map[string]map[string]any, gen func(pos string) string) (*scene, diagnostics, string) {
	if n := len(mustJSON(prog)); n > maxSceneBytes {
		return nil, nil, fmt.Sprintf("the scene is %d bytes; the bound is %d", n, maxSceneBytes)
	}
	v := &validator{entries: entries, ids: map[string]bool{}, defined: map[string]bool{}, sc: &scene{}, gen: gen}
	root, ok := prog.(map[string]any)
	if !ok {
		what := "null"
		if prog != nil {
			what = jsonType(prog)
		}
		v.diags.add("error", "bad_step", "", "a scene is a JSON object, not "+what, "")
		return nil, v.diags, ""
	}
	for _, k := range sortedKeys(root) {
		switch k {
		case "steps", "input", "output", "trigger":
		default:
			v.diags.add("error", "constraint", "/"+ptrEsc(k), fmt.Sprintf("lumen/1 scenes have no member %q", k),
				"the members are steps, input, output and trigger")
		}
	}
	if in, present := root["input"]; present {
		decl, ok := in.(map[string]any)
		if !ok {
			v.diags.add("error", "type_error", "/input", "input declares parameters: {\"name\": \"number\"|\"string\"|\"boolean\"}", "")
		} else {
			v.sc.input = map[string]string{}
			for _, name := range sortedKeys(decl) {
				t, _ := decl[name].(string)
				if t != "number" && t != "string" && t != "boolean" {
					v.diags.add("error", "type_error", "/input/"+ptrEsc(name), fmt.Sprintf("parameter %q must be declared as \"number\", \"string\" or \"boolean\"", name), "")
					continue
				}
				v.sc.input[name] = t
			}
		}
	}
	if tr, present := root["trigger"]; present {
		tm, ok := tr.(map[string]any)
		sensor, _ := tm["sensor"].(string)
		switch {
		case !ok || len(tm) != 1 || sensor == "":
			v.diags.add("error", "bad_step", "/trigger", "a trigger is {\"sensor\": \"<sensor id>\"}", "")
		case v.entries[sensor] == nil || v.entries[sensor]["kind"] != "sensor":
			v.diags.add("error", "unknown_target", "/trigger/sensor", fmt.Sprintf("%q is not a sensor of the catalog", sensor),
				closeMatch(sensor, v.entries, "sensor"))
		default:
			v.sc.trigger = sensor
		}
	}
	steps, ok := root["steps"].([]any)
	if !ok {
		v.diags.add("error", "bad_step", "", "a scene needs a \"steps\" array", "")
	} else {
		v.sc.steps = v.stepList(steps, "/steps", "step", 1)
	}
	if v.bounds != "" {
		return nil, nil, v.bounds
	}
	if out, present := root["output"]; present {
		om, ok := out.(map[string]any)
		if !ok {
			v.diags.add("error", "bad_step", "/output", "output maps keys to expressions: {\"key\": \"$.steps.<id>.output\"}", "")
		} else {
			v.sc.output, v.sc.hasOutput = om, true
			v.expr(om, "/output")
		}
	}
	if v.diags.hasError() {
		return nil, v.diags, ""
	}
	return v.sc, v.diags, ""
}

func (v *validator) stepList(items []any, ptr, genPrefix string, depth int) []*step {
	if depth > maxDepth {
		v.bounds = fmt.Sprintf("steps are nested deeper than the bound of %d", maxDepth)
		return nil
	}
	var out []*step
	for i, it := range items {
		p := ptr + "/" + strconv.Itoa(i)
		v.count++
		if v.count > maxDeclaredSteps {
			v.bounds = fmt.Sprintf("the scene declares more than %d steps", maxDeclaredSteps)
			return nil
		}
		m, ok := it.(map[string]any)
		if !ok {
			v.diags.add("error", "bad_step", p, "a step is a JSON object", "")
			continue
		}
		st := v.step(m, p, fmt.Sprintf("%s-%d", genPrefix, i+1), depth)
		if v.bounds != "" {
			return nil
		}
		if st != nil {
			out = append(out, st)
		}
	}
	return out
}

var stepMembers = map[string][]string{
	"call":   {"id", "do", "target", "with", "action"},
	"if":     {"id", "do", "when", "then", "else"},
	"repeat": {"id", "do", "times", "body"},
	"let":    {"id", "do", "value"},
}

func (v *validator) step(m map[string]any, p, genID string, depth int) *step {
	st := &step{}
	kind, _ := m["do"].(string)
	allowed, known := stepMembers[kind]
	if !known {
		if _, present := m["do"]; !present {
			v.diags.add("error", "bad_step", p, "a step needs \"do\": call, if, repeat or let", "")
		} else {
			v.diags.add("error", "unknown_step_kind", p+"/do", fmt.Sprintf("unknown step kind %v", m["do"]), "use call, if, repeat or let")
		}
		return nil
	}
	st.kind = kind
	for _, k := range sortedKeys(m) {
		if !contains(allowed, k) {
			v.diags.add("error", "constraint", p+"/"+ptrEsc(k), fmt.Sprintf("a %s step has no member %q", kind, k), "members: "+strings.Join(allowed, ", "))
		}
	}
	if raw, present := m["id"]; present {
		id, ok := raw.(string)
		switch {
		case !ok || id == "":
			v.diags.add("error", "bad_step", p+"/id", "id is a non-empty string", "")
		case strings.ContainsAny(id, "#/"):
			v.diags.add("error", "reserved_character", p+"/id", fmt.Sprintf("step id %q contains '#' or '/', which trace identifiers reserve", id), "")
		default:
			st.id = id
		}
	} else {
		st.id = v.gen(genID)
	}
	if st.id != "" {
		if v.ids[st.id] {
			v.diags.add("error", "duplicate_id", p+"/id", fmt.Sprintf("step id %q is used twice", st.id), "")
		}
		v.ids[st.id] = true
	}
	switch kind {
	case "call":
		v.call(st, m, p)
	case "let":
		val, present := m["value"]
		if !present {
			v.diags.add("error", "bad_step", p, "a let step needs \"value\"", "")
		}
		st.value = val
		v.expr(val, p+"/value")
	case "if":
		v.condition(st, m, p)
		parent := st.id
		if parent == "" {
			parent = genID
		}
		if arm, ok := m["then"].([]any); ok {
			st.then = v.stepList(arm, p+"/then", parent+"-then", depth+1)
		} else {
			v.diags.add("error", "bad_step", p, "an if step needs a \"then\" array", "")
		}
		if raw, present := m["else"]; present {
			if arm, ok := raw.([]any); ok {
				st.els = v.stepList(arm, p+"/else", parent+"-else", depth+1)
			} else {
				v.diags.add("error", "bad_step", p+"/else", "else is an array of steps", "")
			}
		}
	case "repeat":
		f, ok := m["times"].(float64)
		if !ok || f != math.Trunc(f) || f < 0 || f > maxTimes {
			v.diags.add("error", "bad_step", p+"/times", fmt.Sprintf("times is an integer from 0 to %d", maxTimes), "")
		}
		st.times = int(f)
		parent := st.id
		if parent == "" {
			parent = genID
		}
		if body, ok := m["body"].([]any); ok {
			v.loops = append(v.loops, st.id)
			st.body = v.stepList(body, p+"/body", parent+"-body", depth+1)
			v.loops = v.loops[:len(v.loops)-1]
		} else {
			v.diags.add("error", "bad_step", p, "a repeat step needs a \"body\" array", "")
		}
	}
	if st.id != "" {
		v.defined[st.id] = true
	}
	return st
}

func (v *validator) call(st *step, m map[string]any, p string) {
	target, _ := m["target"].(string)
	if target == "" {
		v.diags.add("error", "bad_step", p, "a call step needs \"target\", a catalog entry id", "")
		return
	}
	st.target = target
	e := v.entries[target]
	if e == nil || !callableKinds[e["kind"].(string)] {
		msg := fmt.Sprintf("unknown target %q", target)
		if e != nil {
			msg = fmt.Sprintf("%q is a %v, which is not callable", target, e["kind"])
		}
		v.diags.add("error", "unknown_target", p+"/target", msg, closeMatch(target, v.entries, ""))
		return
	}
	if a, present := m["action"]; present {
		if a != "read" || e["kind"] != "fixture" {
			v.diags.add("error", "bad_step", p+"/action", "action is \"read\", and only on a fixture", "")
			return
		}
		st.action = "read"
		if _, has := m["with"]; has {
			v.diags.add("error", "type_error", p+"/with", "reading a fixture takes no with", "")
		}
		return
	}
	with := map[string]any{}
	if raw, present := m["with"]; present {
		w, ok := raw.(map[string]any)
		if !ok {
			v.diags.add("error", "type_error", p+"/with", "with is an object", "")
			return
		}
		with = w
	}
	st.with = with
	v.checkWith(with, e["input_schema"].(map[string]any), p+"/with", target)
	v.expr(with, p+"/with")
	if lvl, ok := with["level"].(float64); ok && lvl == 0 && e["kind"] == "fixture" {
		v.diags.add("warning", "dim_to_zero", p+"/with/level", fmt.Sprintf("level 0 turns %s off", target), "")
	}
}

// checkWith holds literal with values to the entry's input_schema; the
// schemas of this catalog use only the keywords read here.
func (v *validator) checkWith(with, schema map[string]any, p, target string) {
	props, _ := schema["properties"].(map[string]any)
	req, _ := schema["required"].([]any)
	for _, r := range req {
		if _, ok := with[r.(string)]; !ok {
			v.diags.add("error", "type_error", p, fmt.Sprintf("%s needs %q", target, r), "")
		}
	}
	for _, k := range sortedKeys(with) {
		ps, ok := props[k].(map[string]any)
		if !ok {
			v.diags.add("error", "type_error", p+"/"+ptrEsc(k), fmt.Sprintf("%s takes no %q", target, k), "")
			continue
		}
		val := with[k]
		if s, ok := val.(string); ok && strings.HasPrefix(s, "$.") {
			continue // checked when the expression is resolved at run time
		}
		if msg := valueFault(val, ps); msg != "" {
			v.diags.add("error", "type_error", p+"/"+ptrEsc(k), fmt.Sprintf("%s.%s %s", target, k, msg), "")
		}
	}
}

// valueFault says how val breaks a property schema of this catalog, or "".
func valueFault(val any, ps map[string]any) string {
	switch ps["type"] {
	case "integer":
		f, ok := val.(float64)
		if !ok || f != math.Trunc(f) {
			return "must be an integer"
		}
		if mn, ok := ps["minimum"].(int); ok && f < float64(mn) {
			return fmt.Sprintf("must be at least %d", mn)
		}
		if mx, ok := ps["maximum"].(int); ok && f > float64(mx) {
			return fmt.Sprintf("must be at most %d", mx)
		}
	case "string":
		s, ok := val.(string)
		if !ok {
			return "must be a string"
		}
		if en, ok := ps["enum"].([]any); ok && !containsAny(en, s) {
			return fmt.Sprintf("must be one of %v", en)
		}
	}
	return ""
}

func (v *validator) condition(st *step, m map[string]any, p string) {
	w, ok := m["when"].(map[string]any)
	if !ok || len(w) != 1 {
		v.diags.add("error", "bad_expression", p+"/when", "a condition is {\"gt\"|\"lt\"|\"eq\": [a, b]}", "")
		return
	}
	for op, raw := range w {
		args, ok := raw.([]any)
		if (op != "gt" && op != "lt" && op != "eq") || !ok || len(args) != 2 {
			v.diags.add("error", "bad_expression", p+"/when", "a condition is {\"gt\"|\"lt\"|\"eq\": [a, b]}", "")
			return
		}
		st.when = cond{op: op, a: args[0], b: args[1]}
		v.expr(args[0], p+"/when/"+op+"/0")
		v.expr(args[1], p+"/when/"+op+"/1")
	}
}

// expr checks every expression inside x against the scope rules.
func (v *validator) expr(x any, p string) {
	switch t := x.(type) {
	case map[string]any:
		for _, k := range sortedKeys(t) {
			v.expr(t[k], p+"/"+ptrEsc(k))
		}
	case []any:
		for i, e := range t {
			v.expr(e, p+"/"+strconv.Itoa(i))
		}
	case string:
		if !strings.HasPrefix(t, "$.") {
			return
		}
		if msg := v.exprFault(t); msg != "" {
			v.diags.add("error", "bad_expression", p, msg, "")
		}
	}
}

func (v *validator) exprFault(e string) string {
	switch {
	case strings.HasPrefix(e, "$.input."):
		name := strings.TrimPrefix(e, "$.input.")
		if _, ok := v.sc.input[name]; !ok {
			return fmt.Sprintf("%s: the scene declares no input %q", e, name)
		}
		return ""
	case strings.HasPrefix(e, "$.steps."):
		if _, _, ok := splitStepRef(e, v.defined); !ok {
			return fmt.Sprintf("%s: no earlier step has that id (see the scope rules)", e)
		}
		return ""
	case strings.HasPrefix(e, "$.loop."):
		rest := strings.TrimPrefix(e, "$.loop.")
		id, ok := strings.CutSuffix(rest, ".index")
		if ok && id != "" && contains(v.loops, id) {
			return ""
		}
		return fmt.Sprintf("%s: not inside a repeat with that id", e)
	}
	return fmt.Sprintf("%s is not an expression: use $.input.<name>, $.steps.<id>.output or $.loop.<id>.index", e)
}

// splitStepRef parses $.steps.<id>.output[.field...] against the known ids
// (ids may contain dots), taking the longest id that fits.
func splitStepRef(e string, known map[string]bool) (string, []string, bool) {
	rest := strings.TrimPrefix(e, "$.steps.")
	best := ""
	for id := range known {
		if strings.HasPrefix(rest, id+".output") && len(id) > len(best) {
			tail := strings.TrimPrefix(rest, id+".output")
			if tail == "" || strings.HasPrefix(tail, ".") {
				best = id
			}
		}
	}
	if best == "" {
		return "", nil, false
	}
	tail := strings.TrimPrefix(strings.TrimPrefix(rest, best+".output"), ".")
	var fields []string
	if tail != "" {
		fields = strings.Split(tail, ".")
	}
	return best, fields, true
}

func closeMatch(name string, entries map[string]map[string]any, kind string) string {
	best, bestD := "", 4
	for id, e := range entries {
		if kind != "" && e["kind"] != kind {
			continue
		}
		if !callableKinds[e["kind"].(string)] {
			continue
		}
		if d := editDistance(name, id); d < bestD || (d == bestD && id < best) {
			best, bestD = id, d
		}
	}
	if best == "" {
		return ""
	}
	return "close match: " + best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev = cur
	}
	return prev[len(b)]
}

// --- plan --------------------------------------------------------------------

func useRisk(st *step, entries map[string]map[string]any) string {
	if st.kind != "call" {
		return "safe"
	}
	if st.action == "read" {
		return "safe"
	}
	return entries[st.target]["risk"].(string)
}

// derivePlan follows Part II §5.6: control-flow steps of their own, every arm
// contributed and marked, loop bodies once and marked.
func derivePlan(sc *scene, entries map[string]map[string]any) map[string]any {
	var steps []any
	hints := map[string]bool{"readOnly": true, "destructive": false, "openWorld": false}
	var walk func(list []*step, arm map[string]any, loop string)
	walk = func(list []*step, arm map[string]any, loop string) {
		for _, st := range list {
			r := useRisk(st, entries)
			ps := obj("id", st.id, "risk", r, "risk_hints", riskLevels[r])
			if st.kind == "call" {
				ps["calls"] = st.target
			}
			if arm != nil {
				ps["arm"] = arm
			}
			if loop != "" {
				ps["loop"] = loop
			}
			h := riskLevels[r]
			hints["readOnly"] = hints["readOnly"] && h["readOnly"]
			hints["destructive"] = hints["destructive"] || h["destructive"]
			hints["openWorld"] = hints["openWorld"] || h["openWorld"]
			steps = append(steps, ps)
			switch st.kind {
			case "if":
				walk(st.then, obj("branch", st.id, "label", "then"), loop)
				walk(st.els, obj("branch", st.id, "label", "else"), loop)
			case "repeat":
				walk(st.body, nil, st.id)
			}
		}
	}
	walk(sc.steps, nil, "")
	if steps == nil {
		steps = []any{}
	}
	return obj("steps", steps, "max_risk", levelOf(hints), "max_risk_hints", hints)
}

// levelOf names the risk level whose hints are exactly h.
func levelOf(h map[string]bool) string {
	names := make([]string, 0, len(riskLevels))
	for n := range riskLevels {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		l := riskLevels[n]
		if l["readOnly"] == h["readOnly"] && l["destructive"] == h["destructive"] && l["openWorld"] == h["openWorld"] {
			return n
		}
	}
	return "critical"
}

// --- input binding -------------------------------------------------------------

// bindInput follows the documented convention (Part II §6.5.5); paths point
// into the request's input.
func bindInput(sc *scene, input any, present bool) diagnostics {
	var d diagnostics
	if sc.input == nil {
		if present {
			d.add("error", "input_binding", "", "this scene declares no input; omit input", "")
		}
		return d
	}
	in, ok := input.(map[string]any)
	if !present || !ok {
		want := make([]string, 0, len(sc.input))
		for _, n := range sortedKeys(anyMap(sc.input)) {
			want = append(want, fmt.Sprintf("%q: %s", n, sc.input[n]))
		}
		d.add("error", "input_binding", "", "input is required: {"+strings.Join(want, ", ")+"}", "")
		return d
	}
	for _, n := range sortedKeys(anyMap(sc.input)) {
		val, ok := in[n]
		if !ok {
			d.add("error", "input_binding", "", fmt.Sprintf("input lacks the declared parameter %q", n), "")
			continue
		}
		if jsonType(val) != sc.input[n] {
			d.add("error", "input_binding", "/"+ptrEsc(n), fmt.Sprintf("%q must be a %s", n, sc.input[n]), "")
		}
	}
	for _, n := range sortedKeys(in) {
		if _, ok := sc.input[n]; !ok {
			d.add("error", "input_binding", "/"+ptrEsc(n), fmt.Sprintf("the scene declares no parameter %q", n), "")
		}
	}
	return d
}

// --- execution -----------------------------------------------------------------

// house is the state a run acts on.
type house struct {
	levels map[string]int
	power  bool
	sent   []string
}

func newHouse() *house {
	return &house{levels: map[string]int{}, power: true}
}

func (h *house) clone() *house {
	c := &house{levels: make(map[string]int, len(h.levels)), power: h.power, sent: append([]string(nil), h.sent...)}
	for k, v := range h.levels {
		c.levels[k] = v
	}
	return c
}

type runner struct {
	entries  map[string]map[string]any
	house    *house
	inputs   map[string]any
	trace    []map[string]any
	outputs  map[string]any
	loopIdx  map[string]int
	failure  string // run-level status of a failed started Run
	failMsg  string
	bounded  bool
	executed int
}

// errStop unwinds a run that stopped (bound reached or a step failed).
type errStop struct{}

func (r *runner) add(e map[string]any) {
	if r.executed >= maxExecuted {
		r.bounded = true
		r.failure, r.failMsg = "partial", fmt.Sprintf("stopped after %d executed steps, the bound", maxExecuted)
		panic(errStop{})
	}
	r.executed++
	r.trace = append(r.trace, e)
}

// run executes sc; it reports the run-level outcome.
func (r *runner) run(sc *scene) (ok bool) {
	r.outputs, r.loopIdx = map[string]any{}, map[string]int{}
	defer func() {
		if p := recover(); p != nil {
			if _, stop := p.(errStop); !stop {
				panic(p)
			}
			ok = false
		}
	}()
	r.steps(sc.steps, "")
	return true
}

func (r *runner) steps(list []*step, suffix string) {
	for _, st := range list {
		r.step(st, suffix)
	}
}

func (r *runner) step(st *step, suffix string) {
	tid := st.id + suffix
	switch st.kind {
	case "call":
		r.call(st, tid)
	case "let":
		v := r.eval(st.value)
		r.add(obj("id", tid, "input", obj("value", st.value), "output", v, "outcome", okOutcome()))
		r.outputs[st.id] = v
	case "if":
		a, b := r.eval(st.when.a), r.eval(st.when.b)
		took := "else"
		if compare(st.when.op, a, b) {
			took = "then"
		}
		r.add(obj("id", tid, "outcome", okOutcome(), "decisions", []any{
			obj("at", tid, "took", took, "because", fmt.Sprintf("%s(%s, %s) is %v", st.when.op, compact(a), compact(b), took == "then")),
		}))
		r.outputs[st.id] = obj("took", took)
		if took == "then" {
			r.steps(st.then, suffix)
		} else {
			r.steps(st.els, suffix)
		}
	case "repeat":
		e := obj("id", tid, "outcome", okOutcome())
		var decisions []any
		e["decisions"] = decisions
		r.add(e)
		defer func() {
			e["decisions"] = decisions
			if p := recover(); p != nil {
				status := "error"
				if r.bounded {
					status = "partial"
				}
				e["outcome"] = failOutcome(status, "the loop stopped: "+r.failMsg)
				panic(p)
			}
		}()
		for i := 1; i <= st.times; i++ {
			decisions = append(decisions, obj("at", tid, "took", "continue", "because", fmt.Sprintf("iteration %d of %d", i, st.times)))
			e["decisions"] = decisions
			r.loopIdx[st.id] = i
			r.steps(st.body, suffix+"#"+strconv.Itoa(i))
		}
		decisions = append(decisions, obj("at", tid, "took", "exit", "because", fmt.Sprintf("%d of %d iterations done", st.times, st.times)))
		r.outputs[st.id] = obj("iterations", st.times)
	}
}

func (r *runner) call(st *step, tid string) {
	e := r.entries[st.target]
	kind := e["kind"].(string)
	in := map[string]any{}
	if st.action != "read" {
		in = r.eval(st.with).(map[string]any)
	}
	entryOut := func(out any, ms int) {
		r.add(obj("id", tid, "calls", st.target, "input", in, "output", out, "outcome", okOutcome(), "t_ms", ms))
		r.outputs[st.id] = out
	}
	fail := func(stepStatus, runStatus, msg string) {
		r.add(obj("id", tid, "calls", st.target, "input", in, "output", nil, "outcome", failOutcome(stepStatus, msg), "t_ms", 1))
		r.failure, r.failMsg = runStatus, msg
		panic(errStop{})
	}
	switch kind {
	case "fixture":
		if st.action == "read" {
			lvl := r.house.levels[st.target]
			entryOut(obj("level", lvl, "on", lvl > 0), 4)
			return
		}
		if msg := valueFault(in["level"], levelSchema()["properties"].(map[string]any)["level"].(map[string]any)); msg != "" {
			fail("error", "error", fmt.Sprintf("%s.level %s (got %s)", st.target, msg, compact(in["level"])))
		}
		if !r.house.power {
			fail("no_power", "no_power", st.target+" has no power: the main breaker is off")
		}
		lvl := int(in["level"].(float64))
		r.house.levels[st.target] = lvl
		entryOut(obj("level", lvl, "on", lvl > 0), 12)
	case "sensor":
		if st.target == "sensor.lux_hall" {
			entryOut(obj("lux", 120), 3)
		} else {
			entryOut(obj("motion", true), 3)
		}
	case "notifier":
		msg, ok := in["message"].(string)
		if !ok {
			fail("error", "error", "notify.phone.message must be a string")
		}
		r.house.sent = append(r.house.sent, msg)
		entryOut(obj("delivered", true), 40)
	case "breaker":
		state, _ := in["state"].(string)
		if state != "on" && state != "off" {
			fail("error", "error", "breaker.main.state must be \"on\" or \"off\"")
		}
		r.house.power = state == "on"
		if !r.house.power {
			r.house.levels = map[string]int{}
		}
		entryOut(obj("state", state), 25)
	}
}

func (r *runner) eval(x any) any {
	switch t := x.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, v := range t {
			out[k] = r.eval(v)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, v := range t {
			out[i] = r.eval(v)
		}
		return out
	case string:
		switch {
		case strings.HasPrefix(t, "$.input."):
			return r.inputs[strings.TrimPrefix(t, "$.input.")]
		case strings.HasPrefix(t, "$.loop."):
			return float64(r.loopIdx[strings.TrimSuffix(strings.TrimPrefix(t, "$.loop."), ".index")])
		case strings.HasPrefix(t, "$.steps."):
			known := make(map[string]bool, len(r.outputs))
			for k := range r.outputs {
				known[k] = true
			}
			id, fields, ok := splitStepRef(t, known)
			if !ok {
				return nil // a step that did not run (scope rules)
			}
			v := jsonRound(r.outputs[id])
			for _, f := range fields {
				m, ok := v.(map[string]any)
				if !ok {
					return nil
				}
				v = m[f]
			}
			return v
		}
	}
	return x
}

func compare(op string, a, b any) bool {
	if op == "eq" {
		return string(mustJSON(a)) == string(mustJSON(b))
	}
	fa, ok1 := a.(float64)
	fb, ok2 := b.(float64)
	if !ok1 || !ok2 {
		return false
	}
	if op == "gt" {
		return fa > fb
	}
	return fa < fb
}

func okOutcome() map[string]any { return obj("ok", true, "status", "success", "error", nil) }

func failOutcome(status, msg string) map[string]any {
	return obj("ok", false, "status", status, "error", msg)
}

// summarize re-levels full trace steps to summary (Part II §5.8.1, with the
// truncation form of the closed-sets guide).
func summarize(steps []any) []any {
	out := make([]any, len(steps))
	for i, s := range steps {
		m := s.(map[string]any)
		c := make(map[string]any, len(m))
		for k, v := range m {
			if k == "input" {
				continue
			}
			if k == "output" && len(mustJSON(v)) > 64 {
				v = "<truncated>"
			}
			c[k] = v
		}
		out[i] = c
	}
	return out
}

func anyMap(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func containsAny(list []any, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
