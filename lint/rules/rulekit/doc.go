// Package rulekit is what more than one rule family needs: a view of the
// recorded calls classified by the Pilotage operation they performed, what
// one recorded call shows (a request member given, a request accepted, a Run
// started, a catalog_version reported, a read, a one-page complete listing),
// the complete listings a recording holds with their pages joined, lookups
// that always yield a node to report at, and the phrases messages use to
// name values.
//
// A helper that only one family needs lives in that family; this package
// grows only when a second family asks. It imports no family.
package rulekit
