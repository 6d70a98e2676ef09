package rawserver

// The tool schemas are written the way Pydantic v2's model_json_schema
// renders them, because that is what most Python MCP servers publish:
// a title on every property, Optional[X] as anyOf [X, {"type": "null"}] with
// "default": null, enums as named $defs reached through $ref, and the
// program argument as anyOf [{"type": "object"}, {"type": "null"}]. Loop-tool
// members carry their JSON type and nothing more (Part III §4.6), so the only
// enum on the input side is the catalog verb of the fixed access tool.

func str() map[string]any  { return obj("type", "string") }
func null() map[string]any { return obj("type", "null") }
func ref(n string) any     { return obj("$ref", "#/$defs/"+n) }
func arr(items any) any    { return obj("items", items, "type", "array") }
func titled(t string, m map[string]any) map[string]any {
	m["title"] = t
	return m
}

// optional is a Pydantic Optional[X] = None field.
func optional(title string, x map[string]any) map[string]any {
	return obj("anyOf", []any{x, null()}, "default", nil, "title", title)
}

func enumDef(title string, values ...any) map[string]any {
	return obj("enum", values, "title", title, "type", "string")
}

func model(title string, props map[string]any, required ...string) map[string]any {
	m := obj("properties", props, "title", title, "type", "object")
	if len(required) > 0 {
		r := make([]any, len(required))
		for i, s := range required {
			r[i] = s
		}
		m["required"] = r
	}
	return m
}

func inputSchemas() map[string]map[string]any {
	nullableObject := []any{obj("type", "object"), null()}
	return map[string]map[string]any{
		toolManifest: model("pilotage_manifestArguments", obj()),
		toolGuide: model("pilotage_get_guideArguments", obj(
			"language", titled("Language", str()),
			"id", optional("Id", str()),
			"topic", optional("Topic", str()),
		), "language"),
		toolCatalog: func() map[string]any {
			m := model("pilotage_catalogArguments", obj(
				"language", titled("Language", str()),
				"verb", ref("CatalogVerb"),
				"kind", optional("Kind", str()),
				"tag", optional("Tag", str()),
				"q", optional("Q", str()),
				"cursor", optional("Cursor", str()),
				"limit", optional("Limit", obj("minimum", 1, "type", "integer")),
				"id", optional("Id", str()),
				"catalog_version", optional("Catalog Version", str()),
			), "language", "verb")
			m["$defs"] = obj("CatalogVerb", enumDef("CatalogVerb", "list", "get", "changed_since"))
			return m
		}(),
		toolValidate: model("lumen_validateArguments", obj(
			programArg, obj("anyOf", nullableObject, "title", "Lumen"),
			"context", optional("Context", obj("type", "object")),
		), programArg),
		toolExecute: model("lumen_runArguments", obj(
			programArg, obj("anyOf", nullableObject, "default", nil, "title", "Lumen"),
			"input", optional("Input", obj("type", "object")),
			"context", optional("Context", obj("type", "object")),
			"mode", optional("Mode", str()),
			"trace_level", optional("Trace Level", str()),
			"store", optional("Store", obj("type", "boolean")),
			"expected_catalog_version", optional("Expected Catalog Version", str()),
			"idempotency_key", optional("Idempotency Key", str()),
			"test_run", optional("Test Run", obj("type", "boolean")),
		)),
		toolTrace: model("lumen_traceArguments", obj(
			"run_id", titled("Run Id", str()),
			"trace_level", optional("Trace Level", str()),
		), "run_id"),
		toolStatus: model("house_statusArguments", obj()),
	}
}

// outputDefs are the response models of Part II §5-6 and the request error
// of Part III §7.2.
func outputDefs() map[string]any {
	anyVal := func(t string) map[string]any { return obj("title", t) }
	return obj(
		"RiskHints", model("RiskHints", obj(
			"readOnly", titled("Readonly", obj("type", "boolean")),
			"destructive", titled("Destructive", obj("type", "boolean")),
			"openWorld", titled("Openworld", obj("type", "boolean")),
		), "readOnly", "destructive", "openWorld"),
		"Outcome", model("Outcome", obj(
			"ok", titled("Ok", obj("type", "boolean")),
			"status", titled("Status", str()),
			"error", obj("anyOf", []any{str(), null()}, "title", "Error"),
		), "ok", "status", "error"),
		"Severity", enumDef("Severity", "error", "warning"),
		"Diagnostic", model("Diagnostic", obj(
			"severity", ref("Severity"),
			"code", titled("Code", str()),
			"path", titled("Path", str()),
			"range", optional("Range", obj("type", "object")),
			"message", titled("Message", str()),
			"hint", optional("Hint", str()),
		), "severity", "code", "path", "message"),
		"Arm", model("Arm", obj("branch", titled("Branch", str()), "label", titled("Label", str())), "branch", "label"),
		"PlanStep", model("PlanStep", obj(
			"id", titled("Id", str()),
			"calls", optional("Calls", str()),
			"arm", obj("anyOf", []any{ref("Arm"), null()}, "default", nil),
			"loop", optional("Loop", str()),
			"risk", titled("Risk", str()),
			"risk_hints", ref("RiskHints"),
		), "id", "risk", "risk_hints"),
		"Plan", model("Plan", obj(
			"steps", titled("Steps", arr(ref("PlanStep")).(map[string]any)),
			"max_risk", titled("Max Risk", str()),
			"max_risk_hints", ref("RiskHints"),
		), "steps", "max_risk", "max_risk_hints"),
		"ValidateResult", model("ValidateResult", obj(
			"valid", titled("Valid", obj("type", "boolean")),
			"diagnostics", titled("Diagnostics", arr(ref("Diagnostic")).(map[string]any)),
			"catalog_version", optional("Catalog Version", str()),
			"plan", obj("anyOf", []any{ref("Plan"), null()}, "default", nil),
			"references", optional("References", arr(str()).(map[string]any)),
		), "valid", "diagnostics"),
		"Decision", model("Decision", obj(
			"at", titled("At", str()), "took", titled("Took", str()), "because", titled("Because", str()),
		), "at", "took", "because"),
		"TraceStep", model("TraceStep", obj(
			"id", titled("Id", str()),
			"calls", optional("Calls", str()),
			"input", anyVal("Input"),
			"output", anyVal("Output"),
			"outcome", ref("Outcome"),
			"t_ms", optional("T Ms", obj("type", "integer")),
			"decisions", optional("Decisions", arr(ref("Decision")).(map[string]any)),
		), "id", "outcome"),
		"TraceLevel", enumDef("TraceLevel", "summary", "full"),
		"Trace", model("Trace", obj(
			"run_id", titled("Run Id", str()),
			"level", ref("TraceLevel"),
			"steps", titled("Steps", arr(ref("TraceStep")).(map[string]any)),
			"stats", optional("Stats", obj("type", "object")),
		), "run_id", "level", "steps"),
		"ExecuteResult", model("ExecuteResult", obj(
			"run_id", titled("Run Id", str()),
			"outcome", ref("Outcome"),
			"output", anyVal("Output"),
			"diagnostics", optional("Diagnostics", arr(ref("Diagnostic")).(map[string]any)),
			"trace", obj("anyOf", []any{ref("Trace"), null()}, "default", nil),
		), "run_id", "outcome"),
		"TraceFetchResult", model("TraceFetchResult", obj(
			"run_id", titled("Run Id", str()),
			"outcome", ref("Outcome"),
			"output", anyVal("Output"),
			"trace", ref("Trace"),
			"narration", optional("Narration", str()),
		), "run_id", "outcome", "trace"),
		"ErrorKind", enumDef("ErrorKind", "not_found", "invalid_request", "unknown_baseline",
			"idempotency_conflict", "bounds_exceeded", "unsupported", "internal"),
		"ErrorBody", model("ErrorBody", obj("kind", ref("ErrorKind"), "message", titled("Message", str())), "kind", "message"),
		"RequestError", model("RequestError", obj(
			"error", ref("ErrorBody"),
			"catalog_version", optional("Catalog Version", str()),
		), "error"),
		"Manifest", model("Manifest", obj(
			"pilotage", titled("Pilotage", str()),
			"languages", titled("Languages", arr(obj("type", "object")).(map[string]any)),
			"capabilities", optional("Capabilities", obj("type", "object")),
		), "pilotage", "languages"),
		"GuideLevel", enumDef("GuideLevel", "core", "reference", "examples"),
		"GuideMeta", model("GuideMeta", obj(
			"id", titled("Id", str()), "title", titled("Title", str()), "level", ref("GuideLevel"),
			"topics", titled("Topics", arr(str()).(map[string]any)), "language", titled("Language", str()),
			"version", titled("Version", str()), "size_bytes", titled("Size Bytes", obj("type", "integer")),
			"tokens_estimate", optional("Tokens Estimate", obj("type", "integer")),
			"format", optional("Format", str()),
		), "id", "title", "level", "topics", "language", "version", "size_bytes"),
		"Guide", model("Guide", obj(
			"id", titled("Id", str()), "title", titled("Title", str()), "level", ref("GuideLevel"),
			"topics", titled("Topics", arr(str()).(map[string]any)), "language", titled("Language", str()),
			"version", titled("Version", str()), "size_bytes", titled("Size Bytes", obj("type", "integer")),
			"tokens_estimate", optional("Tokens Estimate", obj("type", "integer")),
			"format", optional("Format", str()), "body", titled("Body", str()),
		), "id", "title", "level", "topics", "language", "version", "size_bytes", "body"),
		"GuideIndex", model("GuideIndex", obj("guides", titled("Guides", arr(ref("GuideMeta")).(map[string]any))), "guides"),
		"GuideFetch", model("GuideFetch", obj("guide", ref("Guide")), "guide"),
		"CatalogEntry", model("CatalogEntry", obj(
			"id", titled("Id", str()), "kind", titled("Kind", str()), "name", titled("Name", str()),
			"description", optional("Description", str()),
			"input_schema", optional("Input Schema", obj("type", "object")),
			"output_schema", optional("Output Schema", obj("type", "object")),
			"risk", titled("Risk", str()), "risk_hints", ref("RiskHints"),
			"tags", optional("Tags", arr(str()).(map[string]any)),
			"languages", optional("Languages", arr(str()).(map[string]any)),
			"revision", optional("Revision", str()),
		), "id", "kind", "name", "risk", "risk_hints"),
		"CatalogList", model("CatalogList", obj(
			"items", titled("Items", arr(ref("CatalogEntry")).(map[string]any)),
			"next_cursor", optional("Next Cursor", str()),
			"catalog_version", titled("Catalog Version", str()),
		), "items", "catalog_version"),
		"CatalogGet", model("CatalogGet", obj("entry", ref("CatalogEntry"), "catalog_version", titled("Catalog Version", str())),
			"entry", "catalog_version"),
		"ChangeKind", enumDef("ChangeKind", "added", "removed", "modified"),
		"Change", model("Change", obj("id", titled("Id", str()), "change", ref("ChangeKind")), "id", "change"),
		"CatalogChanges", model("CatalogChanges", obj(
			"catalog_version", titled("Catalog Version", str()),
			"changes", titled("Changes", arr(ref("Change")).(map[string]any)),
		), "catalog_version", "changes"),
	)
}

// outputSchema is the Part III §6 anyOf union: every success shape of the
// tool and the request-error shape. "type": "object" stays at the root
// because MCP requires an object output schema.
func outputSchema(title string, shapes ...string) map[string]any {
	alts := make([]any, 0, len(shapes)+1)
	for _, s := range shapes {
		alts = append(alts, ref(s))
	}
	alts = append(alts, ref("RequestError"))
	return obj("$defs", outputDefs(), "anyOf", alts, "title", title, "type", "object")
}

func toolList() []any {
	in := inputSchemas()
	meta := obj(extensionID, obj("argument", programArg, "language", languageName))
	return []any{
		obj("name", toolManifest, "title", "Pilotage manifest",
			"description", "Start here: call this tool first. It returns the Pilotage manifest of this server: its program "+
				"Language lumen/1 (lighting scenes), its capabilities, and the names of the tools of its loop "+
				"(guides, catalog, validate, run, trace).",
			"inputSchema", in[toolManifest], "outputSchema", outputSchema("ManifestResult", "Manifest"),
			"annotations", obj("readOnlyHint", true, "destructiveHint", false, "openWorldHint", false)),
		obj("name", toolGuide, "title", "Pilotage guides",
			"description", "Learn stage: the guides of a Pilotage Language. Without id it returns the guide index; "+
				"with id, one guide with its body. Read the core guide first; the closed-sets guide lists every code and status.",
			"inputSchema", in[toolGuide], "outputSchema", outputSchema("GuideResult", "GuideIndex", "GuideFetch"),
			"annotations", obj("readOnlyHint", true, "destructiveHint", false, "openWorldHint", false)),
		obj("name", toolCatalog, "title", "Pilotage catalog",
			"description", "Lookup stage: the catalog of the lights, sensors and other names a lumen/1 scene may use. "+
				"Verbs: list (kind, tag, q, cursor, limit) and get (id). Every answer carries catalog_version.",
			"inputSchema", in[toolCatalog], "outputSchema", outputSchema("CatalogResult", "CatalogList", "CatalogGet", "CatalogChanges"),
			"annotations", obj("readOnlyHint", true, "destructiveHint", false, "openWorldHint", false)),
		obj("name", toolValidate, "title", "Validate a lumen/1 scene",
			"description", "Validate stage for lumen/1: checks a scene without side effects and returns valid, diagnostics "+
				"with closed codes, the catalog_version and, when valid, the plan with per-step risk.",
			"inputSchema", in[toolValidate], "outputSchema", outputSchema("ValidateToolResult", "ValidateResult"),
			"annotations", obj("readOnlyHint", true, "destructiveHint", false, "openWorldHint", false),
			"_meta", meta),
		obj("name", toolExecute, "title", "Run a lumen/1 scene",
			"description", "Execute stage for lumen/1: runs a scene (mode \"immediate\") or installs it as an automation "+
				"(mode \"deploy\"; mode is required). The scene is re-validated first; pass expected_catalog_version. "+
				"Returns run_id, outcome and the trace inline; test_run: true evaluates without touching any light.",
			"inputSchema", in[toolExecute], "outputSchema", outputSchema("ExecuteToolResult", "ExecuteResult"),
			"annotations", obj("readOnlyHint", false, "destructiveHint", true, "idempotentHint", false, "openWorldHint", true),
			"_meta", meta),
		obj("name", toolTrace, "title", "Fetch a lumen/1 run",
			"description", "Trace fetch stage for lumen/1: returns the stored record of a run of this session by run_id "+
				"(outcome, output, trace), optionally re-levelled down with trace_level \"summary\".",
			"inputSchema", in[toolTrace], "outputSchema", outputSchema("TraceToolResult", "TraceFetchResult"),
			"annotations", obj("readOnlyHint", true, "destructiveHint", false, "openWorldHint", false)),
		obj("name", toolStatus, "title", "House status",
			"description", "Not part of the Pilotage loop: the simulated house's current light levels, breaker state, "+
				"installed automations and sent notifications.",
			"inputSchema", in[toolStatus],
			"annotations", obj("readOnlyHint", true, "destructiveHint", false, "openWorldHint", false)),
	}
}
