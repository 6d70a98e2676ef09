// Package buildinfo names the version of the running pilotagekit tool from
// the build information the go command embeds, so no release step has to
// stamp it.
package buildinfo

import "runtime/debug"

// Version is the module version for `go install ...@v0.x.y`; for a build
// from a clone, the pseudo-version the go command derives from the commit
// or, when the build was not stamped with one, "devel+" and the VCS
// revision; "devel" when neither is known (go run, -buildvcs=false).
func Version() string {
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
