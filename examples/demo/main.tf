# Configuration behind `make demo`. The provider block is empty: base_url and
# access_token come from JOINIT_BASE_URL and JOINIT_ACCESS_TOKEN (the demo
# points them at the local sandbox).

terraform {
  required_providers {
    joinit = {
      source  = "registry.terraform.io/joinit-community/joinit"
      version = "~> 0.1"
    }
  }
}

provider "joinit" {}

data "joinit_memberships" "active" {
  status = "active"
}

data "joinit_groups" "all" {}

data "joinit_payments" "all" {}

data "joinit_org_metrics" "all" {}

locals {
  active_ids_by_membership_name = {
    for m in data.joinit_memberships.active.memberships :
    coalesce(m.membership_name, "(no membership name)") => m.id...
  }

  payment_totals_by_currency = {
    for p in data.joinit_payments.all.payments :
    coalesce(p.currency, "(no currency)") => p.total...
    if p.total != null
  }

  metrics     = data.joinit_org_metrics.all.results
  period_keys = [for r in local.metrics : r.metric_period_key if r.metric_period_key != null]
  latest_key  = length(local.period_keys) > 0 ? max(local.period_keys...) : null
  latest_metrics = try(
    [for r in local.metrics : r if r.metric_period_key == local.latest_key][0],
    null,
  )
}

output "active_member_count" {
  description = "Memberships with status 100 (active). The sandbox's latest org metrics period counts the same memberships, so latest_org_metrics.active_memberships agrees; against a real service the metrics are the service's own monthly figures and may differ."
  value       = length(data.joinit_memberships.active.memberships)
}

output "active_members_by_membership_name" {
  description = "Active memberships counted by membership type name."
  value       = { for name, ids in local.active_ids_by_membership_name : name => length(ids) }
}

output "groups" {
  description = "Group names, sorted."
  value       = sort([for g in data.joinit_groups.all.groups : coalesce(g.name, "(unnamed ${g.id})")])
}

output "payment_totals_in_minor_units" {
  description = "Sum of payment totals per currency, as the integers the API returns, in the currency's smallest unit (cents): 373885 eur is 3,738.85 EUR."
  value       = { for currency, totals in local.payment_totals_by_currency : currency => sum(totals) }
}

output "latest_org_metrics" {
  description = "The organization metrics record with the highest metric_period_key."
  value = local.latest_metrics == null ? null : {
    organization_id    = local.latest_metrics.organization_id
    metric_period_key  = local.latest_metrics.metric_period_key
    active_memberships = local.latest_metrics.active_memberships
  }
}
