data "joinit_org_metrics" "all" {}

locals {
  metrics     = data.joinit_org_metrics.all.results
  period_keys = [for r in local.metrics : r.metric_period_key if r.metric_period_key != null]
  latest_key  = length(local.period_keys) > 0 ? max(local.period_keys...) : null
}

output "latest_active_memberships" {
  description = "active_memberships of the record with the highest metric_period_key."
  value = try(
    [for r in local.metrics : r.active_memberships if r.metric_period_key == local.latest_key][0],
    null,
  )
}

output "active_memberships_by_period" {
  value = { for r in local.metrics : tostring(r.metric_period_key) => r.active_memberships if r.metric_period_key != null }
}

output "total_pages" {
  value = data.joinit_org_metrics.all.total_pages
}
