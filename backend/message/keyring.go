package message

// Keyring codes: why the system keyring could not be used for an API key
// (package secrets). Keys set as environment variables still count.
const (
	KeyringNoBus   = "keyring.no_bus"  // no D-Bus session: the keyring is not used
	KeyringTimeout = "keyring.timeout" // limit: how long it was given ("5s")
	KeyringFailed  = "keyring.failed"  // detail: the keyring's own error text (keys removed)
)

func init() {
	english[KeyringNoBus] = fixed("no D-Bus session was found, so the system keyring is not used: keys come from the environment variables")
	english[KeyringTimeout] = func(p Params) string {
		return "the system keyring did not answer within " + str(p, "limit") + " (is it locked?)"
	}
	english[KeyringFailed] = func(p Params) string { return "the system keyring failed: " + str(p, "detail") }
}
