package sandbox

import "strings"

// Word lists for the generated data. They mix ASCII with accented, CJK and
// emoji text and with characters JSON must escape (quotes, apostrophes,
// newlines), because those are what break naive clients.

// person is a display name plus the ASCII form used to build e-mail
// addresses (which stay ASCII, like most real ones).
type person struct{ name, ascii string }

var firstNames = []person{
	{"Ana", "ana"}, {"Zoë", "zoe"}, {"José", "jose"}, {"Chloé", "chloe"},
	{"Søren", "soren"}, {"Amélie", "amelie"}, {"Łukasz", "lukasz"}, {"Mei", "mei"},
	{"Hiroshi", "hiroshi"}, {"Priya", "priya"}, {"Oluwaseun", "oluwaseun"}, {"Fatima", "fatima"},
	{"Liam", "liam"}, {"Noah", "noah"}, {"Emma", "emma"}, {"Olivia", "olivia"},
	{"Mateo", "mateo"}, {"Sofia", "sofia"}, {"Yuki", "yuki"}, {"Aarav", "aarav"},
	{"Ingrid", "ingrid"}, {"Kwame", "kwame"}, {"Nadia", "nadia"}, {"Björn", "bjorn"},
}

var lastNames = []person{
	{"García", "garcia"}, {"Müller", "muller"}, {"Nakamura", "nakamura"}, {"O'Brien", "obrien"},
	{"Smith", "smith"}, {"Johnson", "johnson"}, {"Kowalski", "kowalski"}, {"Nguyen", "nguyen"},
	{"Okafor", "okafor"}, {"Andersson", "andersson"}, {"Rossi", "rossi"}, {"Dubois", "dubois"},
	{"Patel", "patel"}, {"Kim", "kim"}, {"Haddad", "haddad"}, {"Silva", "silva"},
	{"山田", "yamada"}, {"Ivanova", "ivanova"}, {"Brown", "brown"}, {"Wilson", "wilson"},
}

var emailDomains = []string{"example.com", "example.org", "example.net", "mail.example"}

var companies = []string{
	"Acme Corp", "Globex", "Initech", "Umbrella Co.", "Stark & Wayne",
	"Café Müller GmbH", "東京 Trading K.K.", `The "Quoted" Society`,
}

var jobTitles = []string{
	"Engineer", "Teacher", "Nurse", "Designer", "Director", "Student", "Retired", "Chef", "Librarian",
}

var genders = []string{"female", "male", "non-binary", "prefer not to say"}

type place struct{ city, region, postal, country string }

var places = []place{
	{"Springfield", "IL", "62701", "US"},
	{"Toronto", "ON", "M5H 2N2", "CA"},
	{"London", "", "SW1A 1AA", "GB"},
	{"München", "BY", "80331", "DE"},
	{"東京", "東京都", "100-0001", "JP"},
	{"São Paulo", "SP", "01000-000", "BR"},
	{"Dublin", "", "D02 X285", "IE"},
	{"Montréal", "QC", "H2Y 1C6", "CA"},
}

var streets = []string{
	"Main St", "Oak Avenue", "High Street", "Bahnhofstraße", "Rua Augusta", "King St W", "Rue de l'Église",
}

// membershipTypes are the four kinds of membership; the price is in the
// currency's smallest unit, like the public documentation's membership types.
var membershipTypes = []struct {
	name  string
	price int
}{
	{"Individual", 5000},
	{"Family", 12000},
	{"Student", 2500},
	{"Corporate", 50000},
}

type questionDef struct {
	question string
	answers  []string
}

var questions = []questionDef{
	{"How did you hear about us?", []string{"A friend told me 🎉", "Google", "Zoë's newsletter", "Instagram", "Flyer at the library"}},
	{"T-shirt size", []string{"S", "M", "L", "XL"}},
	{"Dietary requirements", []string{"None", "Vegetarian", "Vegan 🌱", "Halal", "Gluten-free", "Line one\nLine \"two\""}},
	// Answers made from the member's name, by one of gitHubSpellings: one
	// draw, as the pick of another question's answer.
	{gitHubQuestion, nil},
}

// gitHubQuestion asks the member's GitHub username, as an organization that
// syncs a GitHub team from memberships would (examples/modules/github-team).
const gitHubQuestion = "GitHub username"

// gitHubSpellings are how members answer it: a username as it is, with the
// "@" of a mention, with capitals and a trailing space, not at all, and with
// a space (which no username holds).
var gitHubSpellings = []func(first, last person) string{
	func(f, l person) string { return f.ascii + "-" + l.ascii },
	func(f, l person) string { return "@" + f.ascii + l.ascii },
	func(f, l person) string {
		return strings.ToUpper(f.ascii[:1]) + f.ascii[1:] + strings.ToUpper(l.ascii[:1]) + " "
	},
	func(person, person) string { return "" },
	func(f, l person) string { return f.ascii + " " + l.ascii },
}

var groupNames = []string{
	"Board of Directors", "Volunteers", "Youth Committee", "Events Team", "Newsletter Editors",
	"Fundraising", "Welcome Crew", "Alumni", "Café Club ☕", "東京 Chapter",
}

var groupDescriptions = []string{
	"Meets on the first Monday of the month.",
	"Helps run our events.",
	"Members under 25.",
	"Plans the annual gala — all welcome!",
	"Writes \"The Monthly\" newsletter.",
}

var paymentChannels = []string{"stripe", "stripe", "stripe", "stripe", "cash", "check", "paypal", "manual"}

var currencies = []string{"usd", "usd", "usd", "eur", "gbp"}
