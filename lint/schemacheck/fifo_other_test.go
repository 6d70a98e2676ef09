//go:build !unix

package schemacheck

import "errors"

func mkfifo(string) error { return errors.ErrUnsupported }
