// Package buildinfo names the version of the running pilotagekit tool from
// the build information the go command embeds, so `go install` and
// GoReleaser need no release step to stamp it.
package buildinfo

import "runtime/debug"

// stamped is the version a build names explicitly, with
// -ldflags "-X github.com/pilotagekit/pilotagekit/internal/buildinfo.stamped=v0.1.0".
// The npm packages are built this way (npm/build.sh): their version comes
// from the release tag, and a CI build, made from an untagged commit,
// still carries the one version every package.json carries, which the
// launcher checks.
var stamped string

// Version is the stamped version when there is one; else the module
// version for `go install ...@v0.x.y`; for a build from a clone, the
// pseudo-version the go command derives from the commit
// or, when the build was not stamped with one, "devel+" and the VCS
// revision; "devel" when neither is known (go run, -buildvcs=false).
func Version() string {
	if stamped != "" {
		return stamped
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return fromInfo(bi)
}

func fromInfo(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified == "true" {
		rev += "-dirty"
	}
	return "devel+" + rev
}
