package bagread

import "github.com/foxglove/mcap/go/mcap"

// The bag's own message definitions (MCAP Schema records, sqlite schema-4
// message_definitions), carried to Topic.DefinitionEncoding/Definition so
// that callers can tell stamped types they do not know from the rest.

// addDef keeps a Schema record's encoding and text. string() copies: the
// record body may be a reused buffer.
func (in *mcapInfo) addDef(s *mcap.Schema) {
	if len(s.Data) == 0 && s.Encoding == "" {
		return
	}
	if in.defs == nil {
		in.defs = map[uint16][2]string{}
	}
	in.defs[s.ID] = [2]string{s.Encoding, string(s.Data)}
}

// definitions reads a sqlite file's message_definitions table (rosbag2
// schema 4: one row per type, no foreign key; joined on topics.type) into
// type -> {encoding, text}. A file without the table, or whose table cannot
// be read, has none: definitions are optional, never a reason to refuse
// the bag. The first row of a type wins, as rosbag2 writes each type once.
func (h *sqliteHandle) definitions(tables map[string]bool) map[string][2]string {
	if !tables["message_definitions"] {
		return nil
	}
	rows, err := h.db.Query("SELECT COALESCE(topic_type, ''), COALESCE(encoding, ''), COALESCE(encoded_message_definition, '') FROM message_definitions ORDER BY id")
	if err != nil {
		return nil
	}
	defer rows.Close()
	out := map[string][2]string{}
	for rows.Next() {
		var typ, enc, def string
		if err := rows.Scan(&typ, &enc, &def); err != nil {
			return out
		}
		if _, ok := out[typ]; !ok && typ != "" && (enc != "" || def != "") {
			out[typ] = [2]string{enc, def}
		}
	}
	return out
}
