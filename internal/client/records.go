package client

import (
	"bytes"
	"fmt"
	"reflect"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/pagejson"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/paging"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// What every record type shares. Fields are pointers: any may be null or
// absent, and Terraform must see null.

// JSONText holds a value of undocumented shape as text.
type JSONText string

// MaxJSONTextDepth is how deeply a value kept as JSON text may nest:
// 9,000 levels in 90 KB stalled a plan's renderer for minutes.
const MaxJSONTextDepth = 64

// UnmarshalJSON keeps strings as their value and anything else as compact
// JSON, nested at most MaxJSONTextDepth levels.
func (t *JSONText) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := jsonv2.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = JSONText(s)
		return nil
	}
	if d := jsonDepth(b); d > MaxJSONTextDepth {
		return &pagejson.RefusedValue{Reason: fmt.Sprintf("the value nests %d levels of arrays and objects, more than the %d this provider hands Terraform as JSON text", d, MaxJSONTextDepth)}
	}
	v := jsontext.Value(bytes.Clone(b))
	if err := v.Compact(); err != nil {
		return err
	}
	*t = JSONText(v)
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// jsonDepth is the deepest nesting of arrays and objects in the JSON b.
func jsonDepth(b []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}

// What a record weighs against a read's budget (paging.Budget): weigh adds
// to its fields' width the values nested in it and the bytes of its text.
// Hand-written per type: it runs for every record.

// MaxRecordValues bounds the values of one record (a membership holds
// about 40): a million custom answers in one wrote a 290 MB state.
const MaxRecordValues = 10_000

// budgetOf is the budget of a read of T decoded through only.
func budgetOf[T any, PT interface {
	*T
	record
}](c *Client, only pagejson.Mask) paging.Budget[T] {
	width := len(only)
	if only == nil {
		width = len(pagejson.FieldIndex(reflect.TypeFor[T]()))
	}
	return paging.Budget[T]{MaxValues: c.cfg.MaxValues, MaxBytes: c.cfg.MaxBytes, MaxRecordValues: MaxRecordValues, Width: int64(width),
		Weigh: func(r *T) (int64, int64) { return PT(r).weigh() }}
}

// textOf is the bytes of the strings that are there.
func textOf(strs ...*string) int64 {
	var n int
	for _, s := range strs {
		if s != nil {
			n += len(*s)
		}
	}
	return int64(n)
}

// Fields of the nested types, each one value.
var (
	profileFields      = int64(len(pagejson.FieldIndex(reflect.TypeFor[Profile]())))
	customAnswerFields = int64(len(pagejson.FieldIndex(reflect.TypeFor[CustomAnswer]())))
	paymentLineFields  = int64(len(pagejson.FieldIndex(reflect.TypeFor[PaymentLine]())))
	priceFields        = int64(len(pagejson.FieldIndex(reflect.TypeFor[Price]())))
)

func (m *Membership) weigh() (nested, text int64) {
	text = textOf(m.ID, m.OrganizationID, m.ExternalID, m.Email, m.DisplayName, m.MembershipType, m.MembershipName,
		m.Joined, m.ExpirationDate, m.RebillingDate, m.Created, m.Updated, m.CustomerID, m.SubscriptionID) + int64(len(m.RawJSON))
	if p := m.Profile; p != nil {
		nested += profileFields
		text += textOf(p.FirstName, p.LastName, p.Company, p.Phone, p.JobTitle, p.Birthday, p.Gender, p.Facebook, p.Twitter, p.LinkedIn, (*string)(p.Address))
	}
	if m.CustomAnswers != nil {
		for i := range *m.CustomAnswers {
			a := &(*m.CustomAnswers)[i]
			nested += 1 + customAnswerFields
			text += textOf(a.QuestionID, a.Question, (*string)(a.Answer))
		}
	}
	return nested, text
}

func (m *MembershipSummary) weigh() (nested, text int64) {
	return 0, textOf(m.ID, m.Email, m.MembershipType, m.MembershipName, m.OrganizationID)
}

func (p *Payment) weigh() (nested, text int64) {
	text = textOf(p.ID, p.OrganizationID, p.MemberID, p.Channel, p.Currency, p.PaymentDate, p.Created, p.Updated,
		p.Description, p.DiscountLabel, p.ExternalID, p.CustomerID, p.SubscriptionID, p.InvoicePDF, p.StripeInvoiceID,
		(*string)(p.TotalTaxAmounts)) + int64(len(p.RawJSON))
	if p.MembershipIDs != nil {
		nested = int64(len(*p.MembershipIDs))
		text += textOf(*p.MembershipIDs...)
	}
	if p.Lines != nil {
		for i := range *p.Lines {
			l := &(*p.Lines)[i]
			nested += 1 + paymentLineFields
			text += textOf(l.ID, l.Description)
		}
	}
	return nested, text
}

func (m *MembershipType) weigh() (nested, text int64) {
	text = textOf(m.ID, m.OrganizationID, m.MembershipName, m.Description, m.DurationIntervalType, m.DurationDisplay, m.RegistrationType) + int64(len(m.RawJSON))
	if p := m.Price; p != nil {
		nested = priceFields
		text += textOf(p.Currency, p.Display, p.Type)
	}
	return nested, text
}

func (g *Group) weigh() (nested, text int64) {
	return 0, textOf(g.ID, g.AltID, g.OrganizationID, g.Name) + int64(len(g.RawJSON))
}

func (m *OrgMetric) weigh() (nested, text int64) {
	return 0, textOf(m.OrganizationID) + int64(len(m.RawJSON))
}
