package llm

import (
	"bufio"
	"encoding/hex"
	"net"
	"net/netip"
	"os"
	"strconv"
	"strings"
)

// systemUIDs are the accounts below the first user's (login.defs UID_MIN):
// root and services such as the "ollama" user of Ollama's Linux install.
const systemUIDs = 1000

// checkPeerOwner refuses a loopback connection whose server side is owned
// by another user: the kernel lists every TCP socket of this network
// namespace with its owner's uid in /proc/net/tcp and tcp6. The accepted
// socket (local = our remote, remote = our local) is looked up first, then
// the listener of the port.
func checkPeerOwner(c net.Conn) error {
	remote, ok1 := addrPort(c.RemoteAddr())
	local, ok2 := addrPort(c.LocalAddr())
	if !ok1 || !ok2 || !remote.Addr().IsLoopback() {
		return nil
	}
	uid := socketOwner(remote, local)
	if uid == os.Getuid() || (uid >= 0 && uid < systemUIDs) {
		return nil
	}
	return &OwnerError{Addr: remote.String(), UID: uid}
}

func addrPort(a net.Addr) (netip.AddrPort, bool) {
	t, ok := a.(*net.TCPAddr)
	if !ok {
		return netip.AddrPort{}, false
	}
	ap := t.AddrPort()
	return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()), true
}

// socketOwner is the uid of the socket serving our connection, -1 when it
// is not listed.
func socketOwner(server, client netip.AddrPort) int {
	listener := -1
	for _, path := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		for _, s := range readSockets(path) {
			switch {
			case s.local == server && s.remote == client:
				return s.uid
			case s.listen && s.local.Port() == server.Port() && (s.local.Addr() == server.Addr() || s.local.Addr().IsUnspecified()):
				listener = s.uid
			}
		}
	}
	return listener
}

type socketEntry struct {
	local, remote netip.AddrPort
	listen        bool
	uid           int
}

// readSockets parses /proc/net/tcp{,6}: "sl local_address rem_address st
// ... uid ...", addresses as hex words in host (little-endian) order.
func readSockets(path string) []socketEntry {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []socketEntry
	sc := bufio.NewScanner(f)
	sc.Scan() // the header
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 8 {
			continue
		}
		local, ok1 := parseProcAddr(fields[1])
		remote, ok2 := parseProcAddr(fields[2])
		uid, err := strconv.Atoi(fields[7])
		if !ok1 || !ok2 || err != nil {
			continue
		}
		out = append(out, socketEntry{local: local, remote: remote, listen: fields[3] == "0A", uid: uid})
	}
	return out
}

func parseProcAddr(s string) (netip.AddrPort, bool) {
	host, port, ok := strings.Cut(s, ":")
	b, err := hex.DecodeString(host)
	p, perr := strconv.ParseUint(port, 16, 16)
	if !ok || err != nil || perr != nil || (len(b) != 4 && len(b) != 16) {
		return netip.AddrPort{}, false
	}
	for i := 0; i < len(b); i += 4 { // each 32-bit word is little-endian
		b[i], b[i+1], b[i+2], b[i+3] = b[i+3], b[i+2], b[i+1], b[i]
	}
	a, _ := netip.AddrFromSlice(b)
	return netip.AddrPortFrom(a.Unmap(), uint16(p)), true
}
