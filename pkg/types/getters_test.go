package types

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// requestTypes are the request types a getter test exercises; the test
// fails for a *Request type of the package missing here.
var requestTypes = []reflect.Type{
	reflect.TypeFor[GuideRequest](),
	reflect.TypeFor[CatalogRequest](),
	reflect.TypeFor[ValidateRequest](),
	reflect.TypeFor[ExecuteRequest](),
	reflect.TypeFor[TraceFetchRequest](),
}

// TestGettersOnZeroRequest calls the getter of every optional (pointer)
// member of every request type, on a zero request and on a nil one: each
// returns its member type's zero value and none panics. A member without
// a getter fails the test, by reflection, so a new one cannot slip in.
func TestGettersOnZeroRequest(t *testing.T) {
	for _, rt := range requestTypes {
		for i := range rt.NumField() {
			f := rt.Field(i)
			if f.Type.Kind() != reflect.Pointer {
				continue
			}
			name := "Get" + f.Name
			m, ok := reflect.PointerTo(rt).MethodByName(name)
			if !ok {
				t.Errorf("%s.%s is optional but has no getter %s", rt.Name(), f.Name, name)
				continue
			}
			if m.Type.NumIn() != 1 || m.Type.NumOut() != 1 || m.Type.Out(0) != f.Type.Elem() {
				t.Errorf("%s.%s: want func() %s, got %s", rt.Name(), name, f.Type.Elem(), m.Type)
				continue
			}
			for _, recv := range []reflect.Value{reflect.New(rt), reflect.Zero(reflect.PointerTo(rt))} {
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Errorf("(%s).%s() panics: %v", recv.Type(), name, r)
						}
					}()
					got := m.Func.Call([]reflect.Value{recv})[0]
					if !got.IsZero() {
						t.Errorf("(%s).%s() on an absent member = %v, want the zero value", recv.Type(), name, got)
					}
				}()
			}
			// A present member reads back.
			r := reflect.New(rt)
			v := reflect.New(f.Type.Elem())
			v.Elem().Set(sample(f.Type.Elem()))
			r.Elem().Field(i).Set(v)
			if got := m.Func.Call([]reflect.Value{r})[0]; !reflect.DeepEqual(got.Interface(), v.Elem().Interface()) {
				t.Errorf("%s.%s() = %v, want %v", rt.Name(), name, got, v.Elem())
			}
		}
	}
}

func sample(t reflect.Type) reflect.Value {
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(7)
	}
	return v
}

// TestOptionalMembersDocumented: every request type of the package is in
// requestTypes, and the doc of each optional member names its getter.
func TestOptionalMembersDocumented(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, rt := range requestTypes {
		known[rt.Name()] = true
	}
	seen := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range gd.Specs {
				ts, ok := s.(*ast.TypeSpec)
				if !ok || !strings.HasSuffix(ts.Name.Name, "Request") {
					continue
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				seen++
				if !known[ts.Name.Name] {
					t.Errorf("%s: request type %s is missing from requestTypes", name, ts.Name.Name)
				}
				for _, fld := range st.Fields.List {
					if _, ptr := fld.Type.(*ast.StarExpr); !ptr {
						continue
					}
					for _, n := range fld.Names {
						if !strings.Contains(fld.Doc.Text(), "Get"+n.Name) {
							t.Errorf("%s: the doc of %s.%s does not name its getter Get%s", fset.Position(n.Pos()), ts.Name.Name, n.Name, n.Name)
						}
					}
				}
			}
		}
	}
	if seen != len(requestTypes) {
		t.Errorf("%d request types declared, %d tested", seen, len(requestTypes))
	}
}

// TestRequestMethods: what every handler computes, with the member absent
// and present.
func TestRequestMethods(t *testing.T) {
	var absent ExecuteRequest
	if got := absent.EffectiveTraceLevel(TraceSummary); got != TraceSummary {
		t.Errorf("absent trace_level: effective %q, want the ceiling", got)
	}
	if got := (&ExecuteRequest{TraceLevel: new(TraceFull)}).EffectiveTraceLevel(TraceSummary); got != TraceSummary {
		t.Errorf("full under a summary ceiling: %q", got)
	}
	if got := (&ExecuteRequest{TraceLevel: new(TraceNone)}).EffectiveTraceLevel(TraceFull); got != TraceNone {
		t.Errorf("none under a full ceiling: %q", got)
	}
	if !absent.TraceLevelOK() || !(&ExecuteRequest{TraceLevel: new(TraceNone)}).TraceLevelOK() || (&ExecuteRequest{TraceLevel: new(TraceLevel("verbose"))}).TraceLevelOK() {
		t.Error("ExecuteRequest.TraceLevelOK")
	}
	if !(*TraceFetchRequest)(nil).TraceLevelOK() || (&TraceFetchRequest{TraceLevel: new(TraceNone)}).TraceLevelOK() || !(&TraceFetchRequest{TraceLevel: new(TraceSummary)}).TraceLevelOK() {
		t.Error("TraceFetchRequest.TraceLevelOK: none is refused on the fetch door")
	}
	if got := (&TraceFetchRequest{}).EffectiveTraceLevel(TraceSummary); got != TraceSummary {
		t.Errorf("fetch without trace_level: %q, want the recorded level", got)
	}
	if got := (&TraceFetchRequest{TraceLevel: new(TraceFull)}).EffectiveTraceLevel(TraceSummary); got != TraceSummary {
		t.Errorf("fetch full of a summary record: %q", got)
	}
	for _, c := range []struct {
		store     *bool
		retention Retention
		want      bool
	}{
		{nil, RetentionNone, false}, {nil, RetentionSession, true}, {nil, "PT1H", true}, {nil, "forever", false},
		{new(true), RetentionNone, true}, {new(false), RetentionSession, false},
	} {
		if got := (&ExecuteRequest{Store: c.store}).Retains(c.retention); got != c.want {
			t.Errorf("store %v, retention %q: Retains %v", c.store, c.retention, got)
		}
	}
	for _, c := range []struct {
		mode      *RunMode
		execution ExecutionMode
		ok        bool
		effective RunMode
	}{
		{nil, ExecutionImmediate, true, RunImmediate},
		{nil, ExecutionDeploy, true, RunDeploy},
		{nil, ExecutionBoth, false, ""},
		{new(RunDeploy), ExecutionBoth, true, RunDeploy},
		{new(RunMode("later")), ExecutionBoth, false, ""},
		{new(RunImmediate), ExecutionImmediate, false, RunImmediate},
	} {
		r := &ExecuteRequest{Mode: c.mode}
		if got := r.ModeOK(c.execution); got != c.ok {
			t.Errorf("mode %v under %s: ModeOK %v", c.mode, c.execution, got)
		}
		if got := r.EffectiveMode(c.execution); got != c.effective {
			t.Errorf("mode %v under %s: EffectiveMode %q", c.mode, c.execution, got)
		}
	}
	if !(&GuideRequest{}).IsIndex() || (&GuideRequest{ID: new("")}).IsIndex() {
		t.Error("GuideRequest.IsIndex: a present empty id is a fetch")
	}
	if got := (&CatalogRequest{}).EffectiveLimit(20, 100); got != 20 {
		t.Errorf("absent limit: %d", got)
	}
	if got := (&CatalogRequest{Limit: new(500)}).EffectiveLimit(20, 100); got != 100 {
		t.Errorf("capped limit: %d", got)
	}
}

// TestPortedServer: the server of testdata/port, ported from the API
// before the presence change to the getters, answers every call as the
// old build did (testdata/port/README.md).
func TestPortedServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a server")
	}
	in, err := os.Open("testdata/port/calls.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	cmd := exec.Command("go", "run", "./testdata/port/after")
	cmd.Stdin = in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, stderr.Bytes())
	}
	want, err := os.ReadFile("testdata/port/answers.golden")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the ported server answers\n%s\nthe old build answered\n%s", got, want)
	}
}
