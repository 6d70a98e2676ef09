package schemacheck

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"sync"

	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// A gateway's tools/list repeats the same output schema for every loop
// tool, and a pre-commit run over many files repeats it in every file;
// compiling it once per content rather than once per node is most of the
// cost of those runs. Only clean compilations are shared: a schema with
// issues is compiled again so that its issues point into its own document.

// maxCached bounds the cache, since entries outlive the file they came
// from: a run over many servers' snapshots must not keep every schema it
// ever compiled. Past it, schemas are compiled per node as before; 200
// Languages need 600 loop-tool schemas at most, usually a handful of
// distinct contents.
const maxCached = 1024

type cacheKey struct {
	draft *jsonschema.Draft
	sum   [sha256.Size]byte
}

var cache = struct {
	sync.Mutex
	m map[cacheKey]*jsonschema.Schema
}{m: map[cacheKey]*jsonschema.Schema{}}

func cached(k cacheKey) *jsonschema.Schema {
	cache.Lock()
	defer cache.Unlock()
	return cache.m[k]
}

func remember(k cacheKey, s *jsonschema.Schema) {
	cache.Lock()
	defer cache.Unlock()
	if len(cache.m) < maxCached {
		cache.m[k] = s
	}
}

// contentKey hashes the JSON value at n: kinds, member names in order,
// strings and number literals, each length-prefixed so that no two values
// share an encoding.
func contentKey(n *source.Node) cacheKey {
	h := sha256.New()
	var buf [binary.MaxVarintLen64 + 1]byte
	hashNode(h, n, buf[:])
	k := cacheKey{draft: Draft}
	h.Sum(k.sum[:0])
	return k
}

func hashNode(h hash.Hash, n *source.Node, buf []byte) {
	buf[0] = byte(n.Kind)
	switch n.Kind {
	case source.Bool:
		if n.Truth() {
			buf[0] |= 0x80
		}
		h.Write(buf[:1])
	case source.Number, source.String:
		h.Write(buf[:1+binary.PutUvarint(buf[1:], uint64(len(n.Text())))])
		h.Write([]byte(n.Text()))
	case source.Array, source.Object:
		h.Write(buf[:1+binary.PutUvarint(buf[1:], uint64(len(n.Kids())))])
		for _, k := range n.Kids() {
			if n.Kind == source.Object {
				h.Write(buf[1 : 1+binary.PutUvarint(buf[1:], uint64(len(k.Key())))])
				h.Write([]byte(k.Key()))
			}
			hashNode(h, k, buf)
		}
	default:
		h.Write(buf[:1])
	}
}
