package sandbox

import (
	"math/rand/v2"
	"strconv"
	"time"
)

var _ = registerRecords(EndpointMemberships, recordMaker{generate: generateMemberships, insert: insertMemberships, demo: 250})

type membershipRec struct {
	// person is who holds it: the display name, the profile's names and
	// the e-mail are theirs. Not encoded.
	person         [2]person
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

// generateMemberships also keeps each membership's status, for the status
// filter, and its id, which payments reference.
func generateMemberships(d *dataset, n int) [][]byte {
	g := d.gen
	type mchunk struct {
		recs     [][]byte
		statuses []int
		ids      []string
	}
	mch := make([]mchunk, chunks(n))
	parallel(len(mch), func(c int) {
		lo, hi := c*chunkSize, min((c+1)*chunkSize, n)
		r := g.rng(uint64(kindMembership)<<48 | uint64(c))
		e := newEncoder()
		out := mchunk{statuses: make([]int, 0, hi-lo), ids: make([]string, 0, hi-lo)}
		var owners []emailOwner // the non-null e-mails of this chunk and their people, for duplicates
		var first membershipRec
		for i := lo; i < hi; i++ {
			status := randomStatus(r)
			if n >= 12 && i < 12 {
				status = g.firstStatuses[i]
			}
			var dup *emailOwner
			if len(owners) > 0 && chance(r, 6) {
				dup = &owners[r.IntN(len(owners))]
			}
			m := g.membership(r, uint32(i), status, dup)
			if n >= 12 && i < 12 {
				g.forceFirst(i, &m, &first)
			}
			if i == 0 {
				first = m
			}
			if m.Email != nil && dup == nil {
				owners = append(owners, emailOwner{email: m.Email, first: m.person[0], last: m.person[1]})
			}
			e.add(&m)
			out.statuses = append(out.statuses, m.Status)
			out.ids = append(out.ids, m.ID)
		}
		out.recs = e.records()
		mch[c] = out
	})
	recs := make([][]byte, 0, n)
	for _, c := range mch {
		recs = append(recs, c.recs...)
		d.statuses = append(d.statuses, c.statuses...)
		d.memberIDs = append(d.memberIDs, c.ids...)
	}
	return recs
}

func insertMemberships(d *dataset, r *rand.Rand, seq uint32, n int) [][]byte {
	e := newEncoder()
	statuses := make([]int, 0, n)
	for i := range uint32(n) {
		m := d.gen.membership(r, seq+i, randomStatus(r), nil)
		statuses = append(statuses, m.Status)
		e.add(&m)
	}
	d.statuses = append(statuses, d.statuses...)
	return e.records()
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
// emailOwner is the person an e-mail address of the data set belongs to: a
// membership that shares the address is that person's too (one person can
// hold several memberships; e-mail is not a unique key).
type emailOwner struct {
	email       *string
	first, last person
}

func (g *generator) membership(r *rand.Rand, seq uint32, status int, dup *emailOwner) membershipRec {
	created := epochMs + r.Int64N(spanMs)
	joined := created + r.Int64N(3*dayMs)
	updated := joined + r.Int64N(400*dayMs)
	first, last := pick(r, firstNames), pick(r, lastNames)
	if dup != nil {
		first, last = dup.first, dup.last
	}

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
		Joined:         apiTimestamp(time.UnixMilli(joined)),
		Created:        apiTimestamp(time.UnixMilli(created)),
		Updated:        apiTimestamp(time.UnixMilli(updated)),
		CustomAnswers:  []answerRec{},
		Extra:          sandboxExtra,
	}
	if chance(r, 70) {
		m.ExternalID = ptr("M-" + strconv.Itoa(10000+int(seq)))
	}
	m.person = [2]person{first, last}
	switch {
	case dup != nil:
		m.Email = dup.email
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
		m.ExpirationDate = ptr(apiTimestamp(time.UnixMilli(joined + 365*dayMs)))
	case n < 90:
		m.SubscriptionID = ptr(randToken(r, "sub_", 14))
		rebill := joined + 365*dayMs*(1+r.Int64N(3))
		m.RebillingDate = ptr(apiTimestamp(time.UnixMilli(rebill)))
		if chance(r, 50) {
			m.ExpirationDate = ptr(apiTimestamp(time.UnixMilli(rebill)))
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
		var answer string
		if questions[q].question == gitHubQuestion {
			answer = gitHubSpellings[r.IntN(len(gitHubSpellings))](first, last)
		} else {
			answer = pick(r, questions[q].answers)
		}
		m.CustomAnswers = append(m.CustomAnswers, answerRec{
			QuestionID: g.questionIDs[q],
			Question:   questions[q].question,
			Answer:     answer,
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
		p.Birthday = ptr(apiTimestamp(time.Date(y, time.Month(1+r.IntN(12)), 1+r.IntN(28), 0, 0, 0, 0, time.UTC)))
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
		// The first member's second membership: the same person.
		m.Email, m.DisplayName, m.person = first.Email, first.DisplayName, first.person
		m.Profile.FirstName, m.Profile.LastName = first.Profile.FirstName, first.Profile.LastName
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
