package sandbox

// Org metrics are monthly periods: nothing is inserted while a client pages.
var _ = registerRecords(EndpointOrgMetrics, recordMaker{
	demo:  24,
	about: "one per month from January 2024",
	generate: func(d *dataset, n int) [][]byte {
		e := newEncoder()
		for _, m := range d.gen.orgMetrics(n) {
			e.add(&m)
		}
		return e.records()
	},
})

type orgMetricRec struct {
	OrganizationID    string     `json:"organization_id"`
	MetricPeriodKey   int        `json:"metric_period_key"`
	ActiveMemberships int        `json:"active_memberships"`
	TotalMemberships  int        `json:"total_memberships"`
	NewMemberships    int        `json:"new_memberships"`
	Extra             extraField `json:"x_sandbox_extra"`
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
