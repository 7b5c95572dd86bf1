package store

import (
	"bytes"
	"database/sql"
	"encoding/json"

	"vika/backend/message"
)

// problemColumns are a page's error_code and error_params: "" and NULL
// for a page that was read.
func problemColumns(m *message.Message) (string, any, error) {
	if m == nil {
		return "", nil, nil
	}
	if len(m.Params) == 0 {
		return m.Code, nil, nil
	}
	js, err := json.Marshal(m.Params)
	if err != nil {
		return "", nil, err
	}
	return m.Code, string(js), nil
}

// problemOf reads the columns back; numbers come back as json.Number, so
// a page number prints as it was written.
func problemOf(code string, params sql.NullString) (*message.Message, error) {
	if code == "" {
		return nil, nil
	}
	m := &message.Message{Code: code}
	if params.Valid && params.String != "" {
		dec := json.NewDecoder(bytes.NewReader([]byte(params.String)))
		dec.UseNumber()
		if err := dec.Decode(&m.Params); err != nil {
			return nil, err
		}
	}
	return m, nil
}
