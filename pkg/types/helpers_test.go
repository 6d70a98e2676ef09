package types

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestEffectiveCapabilities(t *testing.T) {
	// Part II §4.2: the Language level replaces the Server level per
	// identifier, sub-features included.
	const doc = `{"pilotage":"1.1",
	 "capabilities":{"guides":true,"validate":true,"catalog":{"search":true,"changed_since":true},"execute":{"test_run":true}},
	 "languages":[
	  {"name":"a/1","title":"A","guides":"pilotage_get_guide","loop":{"validate":"v"},"capabilities":{"catalog":{"search":false},"execute":false,"plan":true}},
	  {"name":"b/1","title":"B","guides":"pilotage_get_guide","loop":{"validate":"v"}}
	 ]}`
	m, err := DecodeManifest([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	a := m.Effective(0)
	if !a.HasDeclaration() || !a.HasServer || !a.HasLanguage {
		t.Errorf("declarations: %+v", a)
	}
	if !a.Declared("catalog") || a.SubFeature("catalog", "search") || a.SubFeature("catalog", "changed_since") {
		t.Error("catalog must come from the Language level in full, without merging changed_since")
	}
	if a.Declared("execute") || a.SubFeature("execute", "test_run") {
		t.Error("execute: false at Language level must undeclare it and its sub-features")
	}
	if !a.Declared("plan") || !a.Declared("guides") {
		t.Error("plan from Language, guides from Server")
	}
	if e, _ := a.Lookup("guides"); e.Level != LevelServer {
		t.Errorf("guides level = %q", e.Level)
	}
	if e, _ := a.Lookup("catalog"); e.Level != LevelLanguage {
		t.Errorf("catalog level = %q", e.Level)
	}
	b, ok := m.EffectiveFor("b/1")
	if !ok || !b.SubFeature("catalog", "changed_since") || !b.SubFeature("execute", "test_run") || b.HasLanguage {
		t.Errorf("b inherits the Server level: %+v", b)
	}
	if _, ok := b.Lookup("trace_fetch"); ok || b.Declared("trace_fetch") {
		t.Error("absent capability is undeclared")
	}
	if got := a.Names(); !reflect.DeepEqual(got, []string{"catalog", "execute", "guides", "plan", "validate"}) {
		t.Errorf("names %v", got)
	}
}

func TestNoDeclaration(t *testing.T) {
	m, _ := DecodeManifest([]byte(`{"pilotage":"1.1","languages":[{"name":"a/1"}]}`))
	if m.Effective(0).HasDeclaration() {
		t.Error("no declaration at either level")
	}
	m, _ = DecodeManifest([]byte(`{"pilotage":"1.1","capabilities":{},"languages":[{"name":"a/1"}]}`))
	if !m.Effective(0).HasDeclaration() {
		t.Error("an empty Server-level map is still a declaration")
	}
	out, _ := json.Marshal(m)
	if string(out) != `{"pilotage":"1.1","languages":[{"name":"a/1","title":"","guides":"","loop":{"validate":""}}],"capabilities":{}}` {
		t.Errorf("empty capabilities must survive encoding: %s", out)
	}
}

func TestCapabilityValues(t *testing.T) {
	var d CapabilityDeclaration
	if err := json.Unmarshal([]byte(`{"guides":true,"validate":false,"catalog":{"search":true,"changed_since":"yes"},"execute":"sure","future":{"x":true}}`), &d); err != nil {
		t.Fatal(err)
	}
	if !d["guides"].Declared() || d["validate"].Declared() || d["validate"].Form != FormFalse {
		t.Error("true/false forms")
	}
	if !d["catalog"].Declared() || !d["catalog"].SubFeature("search") || d["catalog"].SubFeature("changed_since") || len(d["catalog"].BadSub) != 1 {
		t.Errorf("object form: %+v", d["catalog"])
	}
	if d["execute"].Declared() || d["execute"].Form != FormInvalid {
		t.Error("an unknown value is undeclared (Part II §1.3)")
	}
	out, _ := json.Marshal(d["execute"])
	if string(out) != `"sure"` {
		t.Errorf("invalid value re-encodes as is: %s", out)
	}
	if !CapabilityName("future").IsKnown() == false || !CapTraceFetch.IsKnown() {
		t.Error("IsKnown")
	}
	if CapTraceFetch.Dependency() != CapExecute || CapPlan.Dependency() != CapValidate || CapGuides.Dependency() != "" {
		t.Error("dependencies")
	}
	if !IsKnownSubFeature(CapTraceFetch, "narrate") || IsKnownSubFeature(CapPlan, "narrate") {
		t.Error("sub-features")
	}
}

func TestAggregateRisk(t *testing.T) {
	safe := Hints(true, false, false)
	write := Hints(false, false, false)
	del := Hints(false, true, false)
	web := Hints(true, false, true)
	cases := []struct {
		in   []RiskHints
		want RiskHints
	}{
		{nil, Hints(true, false, false)},
		{[]RiskHints{safe, safe}, Hints(true, false, false)},
		{[]RiskHints{safe, write}, Hints(false, false, false)},
		{[]RiskHints{safe, del}, Hints(false, true, false)},
		{[]RiskHints{safe, web}, Hints(true, false, true)},
		{[]RiskHints{del, web}, Hints(false, true, true)},
		// missing members are risky (Part II §7.3 fail closed)
		{[]RiskHints{safe, {}}, Hints(false, true, true)},
	}
	for i, c := range cases {
		if got := AggregateRisk(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%d: got %v want %v", i, got, c.want)
		}
	}
	if safe.RequiresApproval() || !del.RequiresApproval() || !web.RequiresApproval() || !(RiskHints{}).RequiresApproval() {
		t.Error("RequiresApproval")
	}
}

func TestStepID(t *testing.T) {
	good := map[string]StepID{
		"step":           {Base: "step"},
		"step#1":         {Base: "step", Iterations: []int{1}},
		"step#2#4":       {Base: "step", Iterations: []int{2, 4}},
		"call1#2/body#3": {Prefix: "call1#2", Base: "body", Iterations: []int{3}},
		"a/b#1/c":        {Prefix: "a/b#1", Base: "c"},
	}
	for in, want := range good {
		got, err := ParseStepID(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %+v %v", in, got, err)
		}
		if got.String() != in {
			t.Errorf("%q re-assembles as %q", in, got.String())
		}
		if BaseID(in) != want.Base {
			t.Errorf("BaseID(%q) = %q", in, BaseID(in))
		}
	}
	for _, bad := range []string{"", "#1", "step#", "step#0", "step#x", "step#01", "/step", "a//b", "a#1/", "step#-1", "step#+1"} {
		if _, err := ParseStepID(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if ValidProgramStepID("a#b") || ValidProgramStepID("a/b") || !ValidProgramStepID("profile") {
		t.Error("ValidProgramStepID")
	}
	if !(StepID{Prefix: "x"}).Expanded() {
		t.Error("Expanded")
	}
}

func TestRetention(t *testing.T) {
	good := map[string]Duration{
		"PT1H":           {Hours: 1},
		"P1D":            {Days: 1},
		"P2W":            {Weeks: 2},
		"P1Y2M3DT4H5M6S": {Years: 1, Months: 2, Days: 3, Hours: 4, Minutes: 5, Seconds: 6},
		"PT0.5S":         {Seconds: 0.5},
		"PT1,5M":         {Minutes: 1.5},
		"P1M":            {Months: 1},
		"PT1M":           {Minutes: 1},
		"P0D":            {},
	}
	for in, want := range good {
		p, err := ParseRetention(in)
		if err != nil || p.Kind != RetentionKindDuration || p.Duration != want {
			t.Errorf("%q: %+v %v", in, p, err)
		}
		if !Retention(in).IsKnown() {
			t.Errorf("%q IsKnown", in)
		}
	}
	for _, bad := range []string{"", "P", "PT", "1h", "P1H", "PT1D", "P1DT", "p1d", "P1W2D", "P1.5DT2H", "PT1.5H30M", "P-1D", "PT1H ", "Session", "NONE", "P1S"} {
		if _, err := ParseRetention(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if p, _ := ParseRetention("none"); p.Kind != RetentionKindNone || p.Fetchable() {
		t.Error("none")
	}
	if p, _ := ParseRetention("session"); p.Kind != RetentionKindSession || !p.Fetchable() {
		t.Error("session")
	}
	if d, _ := ParseDuration("PT1H30M"); d.Approx().Minutes() != 90 {
		t.Error("Approx")
	}
}

func TestLanguageIDAndVersion(t *testing.T) {
	for in, want := range map[string]LanguageID{
		"workflow/v1":     {"workflow", "v1"},
		"sql/postgres-15": {"sql", "postgres-15"},
		"automation/1":    {"automation", "1"},
		"buildingflow/1":  {"buildingflow", "1"},
	} {
		got, err := ParseLanguageID(in)
		if err != nil || got != want || got.String() != in {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "workflow", "/v1", "workflow/", "a/b/c", "/"} {
		if _, err := ParseLanguageID(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if v, err := ParseVersion("1.1"); err != nil || v != (Version{1, 1}) || v.String() != WireVersion || !v.Usable() {
		t.Errorf("1.1: %v %v", v, err)
	}
	if v, _ := ParseVersion("2.0"); v.Usable() {
		t.Error("a higher major version is not usable (Part II §11.1)")
	}
	if v, _ := ParseVersion("1.7"); !v.Usable() {
		t.Error("minor versions are additive")
	}
	for _, bad := range []string{"", "1", "1.1.0", "v1.1", "01.1", "1.01", "1.", ".1", "1.x"} {
		if _, err := ParseVersion(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestClosedSets(t *testing.T) {
	type known interface{ IsKnown() bool }
	cases := []struct {
		good []known
		bad  known
	}{
		{[]known{LocatorJSONPointer, LocatorTextRange}, Locator("xpath")},
		{[]known{ExecutionImmediate, ExecutionDeploy, ExecutionBoth}, ExecutionMode("later")},
		{[]known{RunImmediate, RunDeploy}, RunMode("both")},
		{[]known{TraceSummary, TraceFull}, TraceNone},
		{[]known{SubprogramOpaque, SubprogramExpanded}, TraceSubprogram("inline")},
		{[]known{AuthorityCaller, AuthorityPromoter}, PromotionAuthority("owner")},
		{[]known{GuideCore, GuideReference, GuideExamples}, GuideLevel("intro")},
		{[]known{SeverityError, SeverityWarning}, Severity("info")},
		{[]known{ChangeAdded, ChangeRemoved, ChangeModified}, ChangeKind("renamed")},
		{[]known{VerbList, VerbGet, VerbChangedSince}, CatalogVerb("search")},
		{[]known{ErrNotFound, ErrInvalidRequest, ErrUnknownBaseline, ErrIdempotencyConflict, ErrBoundsExceeded, ErrUnsupported, ErrInternal}, ErrorKind("timeout")},
		{[]known{StatusSuccess, StatusValidationError, StatusCatalogDrift, StatusPromotionDrift, StatusPartial, StatusError}, OutcomeStatus("timeout")},
		{[]known{StageValidate, StageExecute, StageTraceFetch}, Stage("plan")},
		{[]known{CapGuides, CapCatalog, CapValidate, CapPlan, CapExecute, CapTraceFetch}, CapabilityName("explain")},
		{[]known{RetentionNone, RetentionSession, Retention("PT1H")}, Retention("1h")},
	}
	for _, c := range cases {
		for _, g := range c.good {
			if !g.IsKnown() {
				t.Errorf("%v not known", g)
			}
		}
		if c.bad.IsKnown() {
			t.Errorf("%v known", c.bad)
		}
	}
	if !TraceNone.IsKnownRequest(StageExecute) || TraceNone.IsKnownRequest(StageTraceFetch) || !TraceFull.IsKnownRequest(StageTraceFetch) {
		t.Error("IsKnownRequest")
	}
	if EffectiveTraceLevel("", TraceSummary) != TraceSummary || EffectiveTraceLevel(TraceFull, TraceSummary) != TraceSummary || EffectiveTraceLevel(TraceNone, TraceFull) != TraceNone {
		t.Error("EffectiveTraceLevel")
	}
}

func TestFallbacks(t *testing.T) {
	// Part II §1.3 and Part III §7.2 fallbacks.
	if GuideLevel("intro").Effective() != GuideReference || ChangeKind("renamed").Effective() != ChangeModified ||
		TraceSubprogram("inline").Effective() != SubprogramOpaque || TraceSubprogram("").Effective() != SubprogramOpaque ||
		ErrorKind("timeout").Effective() != ErrInternal || !PromotionAuthority("owner").RequiresApproval() {
		t.Error("fallbacks")
	}
	if (Outcome{OK: false, Status: "timeout"}).Effective() != StatusPartial || (Outcome{OK: false, Status: "error"}).Effective() != StatusError {
		t.Error("outcome fallback")
	}
	if ok, res := StatusSuccess.ReservedOK(); !ok || !res {
		t.Error("ReservedOK")
	}
	if !StatusCatalogDrift.IsRefusal() || StatusPartial.IsRefusal() {
		t.Error("IsRefusal")
	}
}

func TestNullAndAbsent(t *testing.T) {
	var o struct {
		A Outcome `json:"a"`
		B Outcome `json:"b"`
		C Outcome `json:"c"`
	}
	if err := json.Unmarshal([]byte(`{"a":{"ok":true,"status":"success","error":null},"b":{"ok":true,"status":"success"},"c":{"ok":false,"status":"error","error":"boom"}}`), &o); err != nil {
		t.Fatal(err)
	}
	if !o.A.Error.Set || !o.A.Error.Null || o.B.Error.Set || !o.C.Error.IsString() || o.C.Error.Value != "boom" {
		t.Errorf("%+v", o)
	}
	out, _ := json.Marshal(o)
	if string(out) != `{"a":{"ok":true,"status":"success","error":null},"b":{"ok":true,"status":"success"},"c":{"ok":false,"status":"error","error":"boom"}}` {
		t.Errorf("encode: %s", out)
	}
	var s TraceStep
	if err := json.Unmarshal([]byte(`{"id":"x","input":null,"outcome":{"ok":true,"status":"success","error":null}}`), &s); err != nil {
		t.Fatal(err)
	}
	if !s.Input.Present() || !s.Input.Null() || s.Output.Present() || s.IsControlFlow() {
		t.Errorf("%+v", s)
	}
	out, _ = json.Marshal(s)
	if string(out) != `{"id":"x","input":null,"outcome":{"ok":true,"status":"success","error":null}}` {
		t.Errorf("encode: %s", out)
	}
	if err := json.Unmarshal([]byte(`{"id":"l","outcome":{"ok":true,"status":"success","error":null},"decisions":[]}`), &s); err != nil || !s.IsControlFlow() {
		t.Error("empty decisions still marks control flow")
	}
	var n NullableString
	_ = json.Unmarshal([]byte(`42`), &n)
	if !n.Set || !n.Invalid {
		t.Error("invalid error type must decode without failing")
	}
}

func TestDiagnosticPath(t *testing.T) {
	var ds []Diagnostic
	in := `[{"severity":"error","code":"c","path":"/steps/1/capability","message":"m"},{"severity":"warning","code":"c","path":{"start":{"line":1,"column":1},"end":{"line":1,"column":8}},"message":"m"},{"severity":"error","code":"c","path":7,"message":"m"}]`
	if err := json.Unmarshal([]byte(in), &ds); err != nil {
		t.Fatal(err)
	}
	if ds[0].Path.IsRange() || ds[0].Path.Pointer != "/steps/1/capability" || !ds[1].Path.IsRange() || ds[1].Path.Range.End.Column != 8 || string(ds[2].Path.Raw) != "7" {
		t.Errorf("%+v", ds)
	}
	out, _ := json.Marshal(ds)
	if string(out) != in {
		t.Errorf("encode: %s", out)
	}
	if Valid(ds) || !Valid(ds[1:2]) {
		t.Error("validity rule")
	}
	for p, want := range map[string]bool{"": true, "/": true, "/a~0b/~1": true, "a": false, "/a~2": false, "/~": false} {
		if IsJSONPointer(p) != want {
			t.Errorf("IsJSONPointer(%q)", p)
		}
	}
}

func TestProgramDeclaration(t *testing.T) {
	var d ProgramDeclaration
	_ = json.Unmarshal([]byte(`{"languages":[{"argument":"q","language":"a/1"},{"argument":"q","language":"b/1"}]}`), &d)
	if got := d.DuplicateArguments(); !reflect.DeepEqual(got, []string{"q"}) || len(d.Bindings()) != 2 {
		t.Errorf("%v", got)
	}
	d = ProgramDeclaration{Argument: "workflow", Language: "workflow/v1"}
	if b := d.Bindings(); len(b) != 1 || b[0].Argument != "workflow" {
		t.Error("single form")
	}
	if s, ok := FixedToolInputSchema(ToolCatalog); !ok || !json.Valid(s) {
		t.Error("catalog input schema")
	}
	if !json.Valid(GetGuideInputSchema) || !json.Valid(ManifestInputSchema) {
		t.Error("input schemas")
	}
	if !(ExecuteRequest{ProgramRef: new(string)}).RunnableSelectionOK() || (ExecuteRequest{}).RunnableSelectionOK() {
		t.Error("runnable selection")
	}
}

func TestZeroValuesEncodeArrays(t *testing.T) {
	cases := []struct {
		v    any
		want string
	}{
		{&Manifest{Pilotage: "1.1"}, `{"pilotage":"1.1","languages":[]}`},
		{GuideIndexResult{}, `{"guides":[]}`},
		{CatalogListResult{}, `{"items":[],"catalog_version":""}`},
		{CatalogChangedSinceResult{}, `{"catalog_version":"","changes":[]}`},
		{ValidateResponse{Valid: true}, `{"valid":true,"diagnostics":[]}`},
		{Plan{}, `{"steps":[],"max_risk":"","max_risk_hints":{}}`},
		{&Trace{RunID: "r", Level: TraceSummary}, `{"run_id":"r","level":"summary","steps":[]}`},
		{ValidateResponse{Valid: true, Plan: &Plan{}}, `{"valid":true,"diagnostics":[],"plan":{"steps":[],"max_risk":"","max_risk_hints":{}}}`},
		{Guide{GuideMeta: GuideMeta{ID: "g"}, Body: "b"}, `{"id":"g","title":"","level":"","topics":null,"language":"","version":"","size_bytes":0,"body":"b"}`},
	}
	for _, c := range cases {
		b, err := json.Marshal(c.v)
		if err != nil || string(b) != c.want {
			t.Errorf("%T: %s %v", c.v, b, err)
		}
	}
}

// TestCapabilityDeclarationEncoding: without zero entries the encoding is
// encoding/json's own for the map; zero entries are left out, and a zero
// Capability alone does not encode as false.
func TestCapabilityDeclarationEncoding(t *testing.T) {
	d := CapabilityDeclaration{"guides": Declare(), "a<b": Undeclare(), "execute": DeclareWith(), "trace_fetch": DeclareWith(SubNarrate)}
	want, _ := json.Marshal(map[string]Capability(d))
	got, err := json.Marshal(d)
	if err != nil || string(got) != string(want) {
		t.Errorf("got %s, %v; want %s", got, err, want)
	}
	d["plan"] = Capability{}
	if got, _ := json.Marshal(d); string(got) != string(want) {
		t.Errorf("a zero entry is written: %s", got)
	}
	if got, _ := json.Marshal(CapabilityDeclaration{"plan": {}}); string(got) != "{}" {
		t.Errorf("only zero entries: %s", got)
	}
	if got, _ := json.Marshal(struct {
		C CapabilityDeclaration `json:"c,omitzero"`
	}{}); string(got) != "{}" {
		t.Errorf("a nil declaration is written: %s", got)
	}
	if b, err := json.Marshal(Capability{}); err == nil {
		t.Errorf("a zero Capability encodes as %s", b)
	}
	if b, _ := json.Marshal(struct {
		C Capability `json:"c,omitzero"`
	}{}); string(b) != "{}" {
		t.Errorf("an omitzero zero Capability is written: %s", b)
	}
}

// TestProgramArgument: the program moves between the declared argument and
// the abstract member, and a "program" member beside another declared
// argument is not the program.
func TestProgramArgument(t *testing.T) {
	r, err := DecodeValidateRequest([]byte(`{"flow": 1, "program": 2, "context": {}}`), "flow")
	if err != nil || string(r.Program) != "1" || string(r.Context) != "{}" {
		t.Errorf("decode: %s %s %v", r.Program, r.Context, err)
	}
	r, err = DecodeValidateRequest([]byte(`{"program": 2}`), "")
	if err != nil || string(r.Program) != "2" {
		t.Errorf("decode with no argument named: %s %v", r.Program, err)
	}
	r, _ = DecodeValidateRequest([]byte(`{"program": 2}`), "flow")
	if r.Program.Present() {
		t.Errorf("a program member beside argument flow is taken: %s", r.Program)
	}
	if _, err := DecodeExecuteRequest([]byte(`[]`), "flow"); err == nil {
		t.Error("an array decodes")
	}
	e := ExecuteRequest{ProgramRef: new("ref"), Mode: new(RunImmediate)}
	b, err := e.Arguments("flow")
	if err != nil || string(b) != `{"mode":"immediate","program_ref":"ref"}` {
		t.Errorf("encode: %s %v", b, err)
	}
}
