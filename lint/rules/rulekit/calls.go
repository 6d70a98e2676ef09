package rulekit

import (
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// Present returns a request member that carries a value: a member sent as
// null is read as absent, since Clients send either for "not given".
func Present(c *snapshot.Call, name string) *source.Node {
	if v := c.Arg(name); v != nil && !v.IsNull() {
		return v
	}
	return nil
}

// Accepted reports whether a validate or execute call accepted its
// request: valid: true, or a Run whose outcome is ok.
func Accepted(c *snapshot.Call) bool {
	if !c.Succeeded() {
		return false
	}
	switch c.Op {
	case snapshot.OpValidate:
		return True(c.StructuredContent.Get("valid"))
	case snapshot.OpExecute:
		return True(c.StructuredContent.Path("outcome", "ok"))
	}
	return false
}

// Started reports whether an execute call was answered with a Run that
// started: refused Runs (validation_error, catalog_drift, promotion_drift)
// never ran.
func Started(c *snapshot.Call) bool {
	if !c.Succeeded() || !c.StructuredContent.Get("outcome").IsObject() {
		return false
	}
	status, _ := c.StructuredContent.Path("outcome", "status").Value().(string)
	switch types.OutcomeStatus(status) {
	case types.StatusValidationError, types.StatusCatalogDrift, types.StatusPromotionDrift:
		return false
	}
	return true
}

// CatalogVersion returns the catalog_version a result reports for a
// Language: catalog responses (including a failed get) and validate
// responses carry it.
func CatalogVersion(c *snapshot.Call) (string, bool) {
	if c.Op != snapshot.OpCatalog && c.Op != snapshot.OpValidate {
		return "", false
	}
	if c.Channel != snapshot.ChannelResult && c.Channel != snapshot.ChannelRequestError {
		return "", false
	}
	return c.StructuredContent.Str("catalog_version")
}

// Read reports whether a call leaves the Server's state as it found it,
// so that it cannot change the catalog or what a later answer depends on:
// the learn and lookup operations, validate (side-effect free, Part II
// §6.4), the trace fetch door and the manifest. An execute or a server
// tool of its own may change them.
func Read(c *snapshot.Call) bool {
	switch c.Op {
	case snapshot.OpGuideIndex, snapshot.OpGuideFetch, snapshot.OpCatalog, snapshot.OpValidate, snapshot.OpTraceFetch:
		return true
	}
	return c.Name == types.ToolManifest
}

// CompleteListing reports whether a catalog call is an unfiltered list
// that returned every entry on one page: no filter, no cursor, no
// next_cursor (a limit is no filter).
func CompleteListing(c *snapshot.Call) bool {
	if c.Op != snapshot.OpCatalog || c.Verb != string(types.VerbList) || !c.Succeeded() {
		return false
	}
	for _, a := range c.Arguments.Items() {
		if a.Key() != "language" && a.Key() != "verb" && a.Key() != "limit" {
			return false
		}
	}
	sc := c.StructuredContent
	return sc.Get("items").IsArray() && (sc.Get("next_cursor") == nil || sc.Get("next_cursor").IsNull())
}
