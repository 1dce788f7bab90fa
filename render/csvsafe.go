package render

// csvDangerous are the first characters that make a spreadsheet read a
// cell as a formula (or, for tab and carriage return, hide one): the
// OWASP "CSV injection" list.
const csvDangerous = "=+-@\t\r"

// SafeCSVCell returns s with a leading ' when it starts with =, +, -, @,
// tab or carriage return, so a spreadsheet shows the text instead of
// evaluating it. It is applied to every text cell bagclock writes to CSV
// (names and strings from bags, paths, messages); numbers bagclock formats
// itself (such as a negative diff_s) are written as they are, so they stay
// numbers.
func SafeCSVCell(s string) string {
	if s == "" || !isCSVDangerous(s[0]) {
		return s
	}
	return "'" + s
}

func isCSVDangerous(c byte) bool {
	for i := 0; i < len(csvDangerous); i++ {
		if csvDangerous[i] == c {
			return true
		}
	}
	return false
}
