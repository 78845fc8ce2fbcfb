package sandbox

// Org metrics are monthly periods: nothing is inserted while a client pages.
var _ = registerRecords(EndpointOrgMetrics, recordMaker{
	demo:  24,
	about: "one per month from January 2024",
	generate: func(d *dataset, n int) [][]byte {
		active := 0
		for _, st := range d.statuses {
			if st == 100 {
				active++
			}
		}
		e := newEncoder()
		for _, m := range d.gen.orgMetrics(n, active, len(d.statuses)) {
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
// walk of membership counts that ends, in the latest period, at the data
// set's own counts: activeNow memberships of status 100 among totalNow, so
// that a read of the memberships and of the latest metrics agree.
// metric_period_key is YYYYMM and increasing.
func (g *generator) orgMetrics(n, activeNow, totalNow int) []orgMetricRec {
	r := g.rng(streamFixed | 1)
	added, lost := make([]int, n), make([]int, n)
	for i := range n {
		added[i], lost[i] = r.IntN(25), r.IntN(20)
	}
	out := make([]orgMetricRec, n)
	active, total := activeNow, max(totalNow, activeNow)
	for i := n - 1; i >= 0; i-- {
		year, month := 2024+i/12, 1+i%12
		out[i] = orgMetricRec{
			OrganizationID:    g.orgID,
			MetricPeriodKey:   year*100 + month,
			ActiveMemberships: active,
			TotalMemberships:  total,
			NewMemberships:    added[i],
			Extra:             sandboxExtra,
		}
		// The period before: its counts, before this period's changes.
		total = max(total-added[i], 0)
		active = min(max(active-added[i]+lost[i], 0), total)
	}
	return out
}
