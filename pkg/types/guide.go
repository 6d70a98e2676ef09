package types

import "slices"

// GuideLevel is a guide's level (Part II §5.2).
type GuideLevel string

const (
	GuideCore      GuideLevel = "core"
	GuideReference GuideLevel = "reference"
	GuideExamples  GuideLevel = "examples"
)

// GuideLevels is the closed set of Part II §5.2.
var GuideLevels = []GuideLevel{GuideCore, GuideReference, GuideExamples}

// IsKnown reports membership in GuideLevels.
func (g GuideLevel) IsKnown() bool { return slices.Contains(GuideLevels, g) }

// Effective applies the Part II §1.3 fallback: unknown levels read as
// "reference".
func (g GuideLevel) Effective() GuideLevel {
	if g.IsKnown() {
		return g
	}
	return GuideReference
}

// ClosedSetsTopic is the reserved topic of the closed-sets guide (Part II
// §5.2).
const ClosedSetsTopic = "closed-sets"

// CoreGuideMaxBytes is the SHOULD bound on a core guide's size_bytes
// (Part II §5.2).
const CoreGuideMaxBytes = 8192

// DefaultGuideFormat is the media type of a guide body without `format`.
const DefaultGuideFormat = "text/markdown"

// GuideMeta is every guide field except the body: the guide-index form
// (Part II §5.2, §6.2; Part III §4.1).
type GuideMeta struct {
	ID             string     `json:"id"`
	Title          string     `json:"title"`
	Level          GuideLevel `json:"level"`
	Topics         []string   `json:"topics"`
	Language       string     `json:"language"`
	Version        string     `json:"version"`
	SizeBytes      int64      `json:"size_bytes"`
	TokensEstimate *int64     `json:"tokens_estimate,omitempty"`
	Format         string     `json:"format,omitempty"`
}

// HasTopic reports whether the guide lists topic.
func (g GuideMeta) HasTopic(topic string) bool { return slices.Contains(g.Topics, topic) }

// Guide is the fetch form: metadata plus body (Part III §4.1). In the topic
// form the body holds only the requested topic.
type Guide struct {
	GuideMeta
	Body string `json:"body"`
}

// GuideIndexResult is pilotage_get_guide's structuredContent without `id`
// (Part III §4.1 "Index form"). Index entries carry no body.
type GuideIndexResult struct {
	Guides []GuideMeta `json:"guides"`
}

// GuideFetchResult is pilotage_get_guide's structuredContent with `id`
// (Part III §4.1 "Fetch form", "Topic form").
type GuideFetchResult struct {
	Guide Guide `json:"guide"`
}
