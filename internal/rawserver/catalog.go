package rawserver

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// Names shared by the manifest, the tools and the handlers.
const (
	extensionID  = "io.github.jafarsa0/pilotage"
	languageName = "lumen/1"
	programArg   = "lumen"
	toolManifest = "pilotage_manifest"
	toolGuide    = "pilotage_get_guide"
	toolCatalog  = "pilotage_catalog"
	toolValidate = "lumen_validate"
	toolExecute  = "lumen_run"
	toolTrace    = "lumen_trace"
	toolStatus   = "house_status"
	manifestURI  = "pilotage://manifest"

	// defaultPageSize is the page of a listing without limit; maxPageSize
	// caps a larger limit (Part III §4.2: "The Server MAY cap limit").
	defaultPageSize = 4
	maxPageSize     = 5
)

// riskLevels maps the engine-defined risk levels onto their risk_hints
// (Part II §5.3); the closed-sets guide lists the same table.
var riskLevels = map[string]map[string]bool{
	"safe":        {"readOnly": true, "destructive": false, "openWorld": false},
	"write":       {"readOnly": false, "destructive": false, "openWorld": false},
	"external":    {"readOnly": false, "destructive": false, "openWorld": true},
	"destructive": {"readOnly": false, "destructive": true, "openWorld": false},
	// critical is never an entry's level: it names the aggregate of a plan
	// that both destroys and reaches outside, so max_risk stays consistent
	// with max_risk_hints (Part II §5.3).
	"critical": {"readOnly": false, "destructive": true, "openWorld": true},
}

// callableKinds are the entry kinds a call step may target.
var callableKinds = map[string]bool{"fixture": true, "sensor": true, "notifier": true, "breaker": true}

func obj(kv ...any) map[string]any {
	m := make(map[string]any, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func levelSchema() map[string]any {
	return obj("type", "object",
		"properties", obj("level", obj("type", "integer", "minimum", 0, "maximum", 100)),
		"required", []any{"level"})
}

func entry(id, kind, name, risk, description string, in, out map[string]any, tags ...string) map[string]any {
	e := obj("id", id, "kind", kind, "name", name, "description", description, "risk", risk,
		"risk_hints", riskLevels[risk])
	if in != nil {
		e["input_schema"] = in
	}
	if out != nil {
		e["output_schema"] = out
	}
	if len(tags) > 0 {
		t := make([]any, len(tags))
		for i, s := range tags {
			t[i] = s
		}
		e["tags"] = t
	}
	return e
}

// catalogEntries is the house: fixed, so catalog_version is constant for the
// life of the process.
func catalogEntries() []map[string]any {
	fixtureOut := obj("type", "object", "properties", obj("level", obj("type", "integer"), "on", obj("type", "boolean")))
	empty := obj("type", "object", "properties", obj())
	fixture := func(id, name string, tags ...string) map[string]any {
		return entry(id, "fixture", name, "write",
			"Dimmable light: "+name+". Set with {\"level\": 0-100} (0 is off), or read with \"action\": \"read\".",
			levelSchema(), fixtureOut, tags...)
	}
	return []map[string]any{
		fixture("lamp.desk", "Desk lamp", "office"),
		fixture("lamp.hall", "Hall pendant", "hall"),
		fixture("lamp.porch", "Porch light", "outside"),
		fixture("strip.kitchen", "Kitchen LED strip", "kitchen"),
		entry("sensor.lux_hall", "sensor", "Hall light sensor", "safe", "Ambient light in the hall, in lux.",
			empty, obj("type", "object", "properties", obj("lux", obj("type", "number"))), "hall"),
		entry("sensor.motion_hall", "sensor", "Hall motion sensor", "safe", "Whether motion was seen in the hall in the last minute.",
			empty, obj("type", "object", "properties", obj("motion", obj("type", "boolean"))), "hall"),
		entry("notify.phone", "notifier", "Owner's phone", "external", "Push notification through the vendor's cloud service.",
			obj("type", "object", "properties", obj("message", obj("type", "string")), "required", []any{"message"}),
			obj("type", "object", "properties", obj("delivered", obj("type", "boolean")))),
		entry("breaker.main", "breaker", "Main lighting breaker", "destructive",
			"Cuts or restores power to every light; cutting it erases every dimmer's stored level.",
			obj("type", "object", "properties", obj("state", obj("type", "string", "enum", []any{"on", "off"})), "required", []any{"state"}),
			obj("type", "object", "properties", obj("state", obj("type", "string")))),
		entry("zone.ground", "zone", "Ground floor", "safe", "A grouping label; not callable.", nil, nil),
	}
}

// catalogVersion hashes every defined field of every visible entry except
// revision (Part II §5.4, Part IV §3), so the same catalog gives the same
// token in every process.
func catalogVersion(entries []map[string]any) string {
	h := sha256.New()
	for _, e := range entries {
		c := make(map[string]any, len(e))
		for k, v := range e {
			if k != "revision" {
				c[k] = v
			}
		}
		h.Write(mustJSON(c))
		h.Write([]byte{'\n'})
	}
	return "cv_" + hex.EncodeToString(h.Sum(nil))[:16]
}

func entryMatches(e map[string]any, kind, tag, q string) bool {
	if kind != "" && e["kind"] != kind {
		return false
	}
	if tag != "" {
		found := false
		tags, _ := e["tags"].([]any)
		for _, t := range tags {
			if t == tag {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	if q != "" {
		hay := strings.ToLower(fmt.Sprint(e["id"], " ", e["name"], " ", e["description"], " ", e["tags"]))
		if !strings.Contains(hay, strings.ToLower(q)) {
			return false
		}
	}
	return true
}

// A cursor names the offset of the next page and the filters it belongs to,
// so a cursor replayed with other filters is refused instead of skipping.
func encodeCursor(offset int, filter string) string {
	return base64.RawURLEncoding.EncodeToString([]byte("v1|" + strconv.Itoa(offset) + "|" + filter))
}

func decodeCursor(c, filter string) (int, bool) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return 0, false
	}
	parts := strings.SplitN(string(b), "|", 3)
	if len(parts) != 3 || parts[0] != "v1" || parts[2] != filter {
		return 0, false
	}
	n, err := strconv.Atoi(parts[1])
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}
