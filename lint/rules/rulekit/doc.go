// Package rulekit is what more than one rule family needs: a view of the
// recorded calls classified by the Pilotage operation they performed, lookups
// that always yield a node to report at, and the phrases messages use to
// name values.
//
// A helper that only one family needs lives in that family; this package
// grows only when a second family asks. It imports no family.
package rulekit
