package main

import "vika/backend/message"

// bridgeError is what a bound method's error becomes in the page (Wails's
// ErrorFormatter): the promise rejects with {message, code, params}; the
// page translates code and params, message is the English text for logs.
type bridgeError struct {
	Message string         `json:"message"`
	Code    string         `json:"code"`
	Params  message.Params `json:"params,omitempty"`
}

func formatError(err error) any {
	m := message.Of(err)
	return bridgeError{Message: err.Error(), Code: m.Code, Params: m.Params}
}
