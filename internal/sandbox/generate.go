package sandbox

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"time"
)

// Record shapes. encoding/json writes struct fields in declaration order, so
// the same values always give the same bytes.

// extraField is the unknown field every record carries: clients must ignore
// fields they do not know (spec §2, §9).
type extraField struct {
	Note string `json:"note"`
	Rev  int    `json:"rev"`
}

var sandboxExtra = extraField{Note: "unknown field", Rev: 1}

type membershipRec struct {
	ID             string      `json:"_id"`
	OrganizationID string      `json:"organization_id"`
	ExternalID     *string     `json:"external_id"`
	Email          *string     `json:"email"`
	DisplayName    string      `json:"display_name"`
	MembershipType string      `json:"membership_type"`
	MembershipName string      `json:"membership_name"`
	Status         int         `json:"status"`
	Joined         string      `json:"joined"`
	ExpirationDate *string     `json:"expiration_date"`
	RebillingDate  *string     `json:"rebilling_date"`
	Created        string      `json:"created"`
	Updated        string      `json:"updated"`
	CustomerID     *string     `json:"customer_id"`
	SubscriptionID *string     `json:"subscription_id"`
	ProfilePic     any         `json:"profile_pic,omitempty"` // nil: absent; (*string)(nil): null
	ProfilePicCrop *string     `json:"profile_pic_crop"`
	Profile        profileRec  `json:"profile"`
	CustomAnswers  []answerRec `json:"custom_answers"`
	Extra          extraField  `json:"x_sandbox_extra"`
}

type profileRec struct {
	FirstName *string     `json:"first_name"`
	LastName  *string     `json:"last_name"`
	Company   *string     `json:"company"`
	Phone     *string     `json:"phone"`
	JobTitle  *string     `json:"job_title"`
	Birthday  *string     `json:"birthday"`
	Gender    *string     `json:"gender"`
	Facebook  *string     `json:"facebook"`
	Twitter   *string     `json:"twitter"`
	Linkedin  *string     `json:"linkedin"`
	Address   *addressRec `json:"address"`
}

// addressRec: the address field's name and shape are undocumented, so this
// is one plausible shape, and clients should treat it as opaque.
type addressRec struct {
	Line1      string  `json:"line1"`
	Line2      *string `json:"line2"`
	City       string  `json:"city"`
	Region     *string `json:"region"`
	PostalCode string  `json:"postal_code"`
	Country    string  `json:"country"`
}

type answerRec struct {
	QuestionID string `json:"question_id"`
	Question   string `json:"question"`
	Answer     string `json:"answer"`
}

type paymentRec struct {
	ID             string     `json:"_id"`
	OrganizationID string     `json:"organization_id"`
	MemberID       string     `json:"member_id"`
	MembershipIDs  []string   `json:"membership_ids"`
	Channel        string     `json:"channel"`
	Status         int        `json:"status"`
	Currency       string     `json:"currency"`
	Subtotal       int        `json:"subtotal"`
	Total          int        `json:"total"`
	PaymentDate    string     `json:"payment_date"`
	Created        string     `json:"created"`
	Updated        string     `json:"updated"`
	Extra          extraField `json:"x_sandbox_extra"`
}

type groupRec struct {
	ID             string     `json:"_id"`
	OrganizationID string     `json:"organization_id"`
	Name           string     `json:"name"`
	Description    *string    `json:"description"`
	MemberCount    int        `json:"member_count"`
	Created        string     `json:"created"`
	Extra          extraField `json:"x_sandbox_extra"`
}

type orgMetricRec struct {
	OrganizationID    string     `json:"organization_id"`
	MetricPeriodKey   int        `json:"metric_period_key"`
	ActiveMemberships int        `json:"active_memberships"`
	TotalMemberships  int        `json:"total_memberships"`
	NewMemberships    int        `json:"new_memberships"`
	Extra             extraField `json:"x_sandbox_extra"`
}

// Kinds of identifier; the kind byte sits inside the id so ids of different
// kinds never collide.
const (
	kindMembership byte = iota + 1
	kindPayment
	kindGroup
	kindAccount
	kindOrg
	kindType
	kindQuestion
)

// Random streams: each (kind, chunk) pair has its own PCG stream, so the data
// does not depend on how many goroutines build it.
const (
	streamInsert = 1 << 62
	streamFixed  = 1 << 61
)

var (
	epochMs = time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	spanMs  = int64(3 * 365 * 24 * time.Hour / time.Millisecond)
	dayMs   = int64(24 * time.Hour / time.Millisecond)
)

// generator holds what every record of one data set shares.
type generator struct {
	seed        int64
	machine     [3]byte
	orgID       string
	typeIDs     []string
	questionIDs []string
	// firstStatuses fixes the statuses of the first 12 memberships so that
	// every known code and one unknown code appear in any set of 12 or more.
	firstStatuses [12]int
}

func newGenerator(seed int64) *generator {
	g := &generator{seed: seed}
	r := g.rng(streamFixed)
	m := r.Uint32()
	g.machine = [3]byte{byte(m >> 16), byte(m >> 8), byte(m)}
	g.orgID = g.id(kindOrg, 0, epochMs-400*dayMs)
	for i := range membershipTypes {
		g.typeIDs = append(g.typeIDs, g.id(kindType, uint32(i), epochMs-300*dayMs))
	}
	for i := range questions {
		g.questionIDs = append(g.questionIDs, g.id(kindQuestion, uint32(i), epochMs-200*dayMs))
	}
	g.firstStatuses = [12]int{100, 100, 100, 100, 100, 100, 100, 50, 75, 300, 350, 999}
	r.Shuffle(len(g.firstStatuses), func(i, j int) {
		g.firstStatuses[i], g.firstStatuses[j] = g.firstStatuses[j], g.firstStatuses[i]
	})
	return g
}

func (g *generator) rng(stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(g.seed), stream))
}

// id makes a 24-hex identifier shaped like a MongoDB ObjectId: creation
// seconds, a per-seed "machine" part, the kind, and a sequence number. The
// (kind, seq) pair makes it unique.
func (g *generator) id(kind byte, seq uint32, ms int64) string {
	var b [12]byte
	binary.BigEndian.PutUint32(b[0:4], uint32(ms/1000))
	copy(b[4:7], g.machine[:])
	b[7] = kind
	binary.BigEndian.PutUint32(b[8:12], seq)
	return hex.EncodeToString(b[:])
}

// ts formats like the API: ISO 8601 UTC with milliseconds.
func ts(ms int64) string {
	return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z")
}

func ptr[T any](v T) *T { return &v }

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// chance reports true with probability pct/100.
func chance(r *rand.Rand, pct int) bool { return r.IntN(100) < pct }

const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

func randToken(r *rand.Rand, prefix string, n int) string {
	b := make([]byte, len(prefix), len(prefix)+n)
	copy(b, prefix)
	for range n {
		b = append(b, alnum[r.IntN(len(alnum))])
	}
	return string(b)
}

// randomStatus: 100 (active) dominates, as in a live organization; 999
// stands for a code the public documentation does not list.
func randomStatus(r *rand.Rand) int {
	switch n := r.IntN(100); {
	case n < 55:
		return 100
	case n < 70:
		return 300
	case n < 80:
		return 350
	case n < 88:
		return 50
	case n < 96:
		return 75
	default:
		return 999
	}
}

// membership builds one membership. dupEmail, when non-nil, is reused so the
// same address belongs to several memberships (e-mail is not a unique key).
func (g *generator) membership(r *rand.Rand, seq uint32, status int, dupEmail *string) membershipRec {
	created := epochMs + r.Int64N(spanMs)
	joined := created + r.Int64N(3*dayMs)
	updated := joined + r.Int64N(400*dayMs)
	first, last := pick(r, firstNames), pick(r, lastNames)

	t := 0
	switch n := r.IntN(100); {
	case n < 50:
		t = 0
	case n < 70:
		t = 1
	case n < 90:
		t = 2
	default:
		t = 3
	}

	m := membershipRec{
		ID:             g.id(kindMembership, seq, created),
		OrganizationID: g.orgID,
		DisplayName:    first.name + " " + last.name,
		MembershipType: g.typeIDs[t],
		MembershipName: membershipTypes[t].name,
		Status:         status,
		Joined:         ts(joined),
		Created:        ts(created),
		Updated:        ts(updated),
		CustomAnswers:  []answerRec{},
		Extra:          sandboxExtra,
	}
	if chance(r, 70) {
		m.ExternalID = ptr("M-" + strconv.Itoa(10000+int(seq)))
	}
	switch {
	case dupEmail != nil:
		m.Email = dupEmail
	case chance(r, 5):
		// null e-mail
	default:
		m.Email = ptr(first.ascii + "." + last.ascii + strconv.Itoa(r.IntN(1000)) + "@" + pick(r, emailDomains))
	}
	if chance(r, 90) {
		m.CustomerID = ptr(randToken(r, "cus_", 14))
	}
	// Renewal mode: fixed term, auto-renewing subscription, or lifetime.
	switch n := r.IntN(100); {
	case n < 60:
		m.ExpirationDate = ptr(ts(joined + 365*dayMs))
	case n < 90:
		m.SubscriptionID = ptr(randToken(r, "sub_", 14))
		rebill := joined + 365*dayMs*(1+r.Int64N(3))
		m.RebillingDate = ptr(ts(rebill))
		if chance(r, 50) {
			m.ExpirationDate = ptr(ts(rebill))
		}
	}
	switch n := r.IntN(100); {
	case n < 70:
		m.ProfilePic = ptr("https://cdn.example.com/profile/" + m.ID + ".jpg")
	case n < 90:
		m.ProfilePic = (*string)(nil)
	}
	m.Profile = g.profile(r, first, last, t == 3)
	for _, q := range r.Perm(len(questions))[:r.IntN(4)] {
		m.CustomAnswers = append(m.CustomAnswers, answerRec{
			QuestionID: g.questionIDs[q],
			Question:   questions[q].question,
			Answer:     pick(r, questions[q].answers),
		})
	}
	return m
}

func (g *generator) profile(r *rand.Rand, first, last person, corporate bool) profileRec {
	p := profileRec{FirstName: ptr(first.name), LastName: ptr(last.name)}
	if corporate || chance(r, 30) {
		p.Company = ptr(pick(r, companies))
	}
	if chance(r, 70) {
		p.Phone = ptr("+1 555-01" + strconv.Itoa(10+r.IntN(90)))
	}
	if chance(r, 60) {
		p.JobTitle = ptr(pick(r, jobTitles))
	}
	if chance(r, 50) {
		y := 1950 + r.IntN(55)
		p.Birthday = ptr(ts(time.Date(y, time.Month(1+r.IntN(12)), 1+r.IntN(28), 0, 0, 0, 0, time.UTC).UnixMilli()))
	}
	if chance(r, 60) {
		p.Gender = ptr(pick(r, genders))
	}
	handle := first.ascii + last.ascii
	if chance(r, 20) {
		p.Facebook = ptr("https://facebook.com/" + handle)
	}
	if chance(r, 20) {
		p.Twitter = ptr("@" + handle)
	}
	if chance(r, 25) {
		p.Linkedin = ptr("https://www.linkedin.com/in/" + handle)
	}
	if chance(r, 75) {
		pl := pick(r, places)
		a := &addressRec{
			Line1:      strconv.Itoa(1+r.IntN(999)) + " " + pick(r, streets),
			City:       pl.city,
			PostalCode: pl.postal,
			Country:    pl.country,
		}
		if chance(r, 20) {
			a.Line2 = ptr("Apt " + strconv.Itoa(1+r.IntN(40)))
		}
		if pl.region != "" {
			a.Region = ptr(pl.region)
		}
		p.Address = a
	}
	return p
}

// forceFirst makes sure a data set of 12 or more memberships shows every
// awkward case at least once, whatever the seed: a null e-mail (record 1),
// a duplicated e-mail (record 2 repeats record 0), a lifetime membership with
// null external_id/expiration/rebilling (record 3), a unicode custom answer
// and null address (record 4), an absent profile_pic (record 5).
func (g *generator) forceFirst(i int, m *membershipRec, first *membershipRec) {
	switch i {
	case 0:
		if m.Email == nil {
			m.Email = ptr("first.member@example.com")
		}
	case 1:
		m.Email = nil
	case 2:
		m.Email = first.Email
	case 3:
		m.ExternalID, m.ExpirationDate, m.RebillingDate, m.SubscriptionID = nil, nil, nil, nil
	case 4:
		m.Profile.Address = nil
		m.CustomAnswers = append(m.CustomAnswers[:0], answerRec{
			QuestionID: g.questionIDs[3], Question: questions[3].question, Answer: "東京 — Zoë 🎉",
		})
	case 5:
		m.ProfilePic = nil
	}
}

func (g *generator) payment(r *rand.Rand, seq uint32, memberIDs []string) paymentRec {
	created := epochMs + r.Int64N(spanMs)
	sub := pick(r, membershipTypes).price
	tax := pick(r, []int{0, 0, 0, 5, 8, 20})
	p := paymentRec{
		ID:             g.id(kindPayment, seq, created),
		OrganizationID: g.orgID,
		MembershipIDs:  []string{},
		Channel:        pick(r, paymentChannels),
		Currency:       pick(r, currencies),
		Subtotal:       sub,
		Total:          sub + sub*tax/100,
		PaymentDate:    ts(created - r.Int64N(2*dayMs)),
		Created:        ts(created),
		Updated:        ts(created + r.Int64N(30*dayMs)),
		Extra:          sandboxExtra,
	}
	switch n := r.IntN(100); {
	case n < 85:
		p.Status = 100
	case n < 92:
		p.Status = 300
	case n < 97:
		p.Status = 50
	default:
		p.Status = 400
	}
	if len(memberIDs) > 0 {
		j := r.IntN(len(memberIDs))
		p.MemberID = g.id(kindAccount, uint32(j), epochMs)
		p.MembershipIDs = append(p.MembershipIDs, memberIDs[j])
		if chance(r, 10) {
			p.MembershipIDs = append(p.MembershipIDs, memberIDs[r.IntN(len(memberIDs))])
		}
	} else {
		p.MemberID = g.id(kindAccount, r.Uint32(), epochMs)
	}
	return p
}

func (g *generator) group(r *rand.Rand, seq uint32) groupRec {
	created := epochMs + r.Int64N(spanMs)
	gr := groupRec{
		ID:             g.id(kindGroup, seq, created),
		OrganizationID: g.orgID,
		Name:           groupName(seq),
		MemberCount:    r.IntN(300),
		Created:        ts(created),
		Extra:          sandboxExtra,
	}
	if chance(r, 80) {
		gr.Description = ptr(pick(r, groupDescriptions))
	}
	return gr
}

// orgMetrics builds n monthly records from January 2024 on, with a random
// walk of membership counts; metric_period_key is YYYYMM and increasing.
func (g *generator) orgMetrics(n int) []orgMetricRec {
	r := g.rng(streamFixed | 1)
	out := make([]orgMetricRec, 0, n)
	active := 80 + r.IntN(200)
	total := active + r.IntN(60)
	for i := range n {
		year, month := 2024+i/12, 1+i%12
		added := r.IntN(25)
		lost := r.IntN(20)
		total += added
		active = min(max(active+added-lost, 0), total)
		out = append(out, orgMetricRec{
			OrganizationID:    g.orgID,
			MetricPeriodKey:   year*100 + month,
			ActiveMemberships: active,
			TotalMemberships:  total,
			NewMemberships:    added,
			Extra:             sandboxExtra,
		})
	}
	return out
}

// encoder turns records into compact JSON without HTML escaping (a Node or
// Rails API does not escape "&" or "<"). Records of one chunk share one
// backing array, which keeps 100,000 records to a few allocations.
type encoder struct {
	buf   bytes.Buffer
	enc   *json.Encoder
	arena []byte
	offs  []int
}

func newEncoder() *encoder {
	e := &encoder{}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}

func (e *encoder) add(v any) {
	e.buf.Reset()
	if err := e.enc.Encode(v); err != nil {
		panic("sandbox: encode record: " + err.Error()) // only fixed struct types: cannot happen
	}
	b := bytes.TrimSuffix(e.buf.Bytes(), []byte("\n"))
	e.arena = append(e.arena, b...)
	e.offs = append(e.offs, len(e.arena))
}

// records returns the encoded records, each capped so appending to one
// cannot overwrite the next.
func (e *encoder) records() [][]byte {
	out := make([][]byte, len(e.offs))
	start := 0
	for i, end := range e.offs {
		out[i] = e.arena[start:end:end]
		start = end
	}
	return out
}
