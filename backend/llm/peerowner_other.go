//go:build !linux

package llm

import "net"

// checkPeerOwner is Linux-only (peerowner_linux.go): elsewhere the owner
// of a local server is not checked.
func checkPeerOwner(net.Conn) error { return nil }
