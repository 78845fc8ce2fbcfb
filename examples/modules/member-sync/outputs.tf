output "records" {
  description = "The memberships read: id, email, organization_id and the fields asked, as the API holds them. For a module that keys its group by another field."
  value       = data.joinit_memberships.this.records
}

output "addresses" {
  description = "Each membership read that has an e-mail address: its id to the address, lower-cased and trimmed."
  value       = local.addresses
}

output "memberships_without_address" {
  description = "The id of each membership read without an e-mail address: no downstream user can be found for it. Ids, not addresses, so a plan log holds no personal data."
  value       = sort([for r in data.joinit_memberships.this.records : r.id if !can(local.addresses[r.id])])
}

output "members" {
  description = "The distinct addresses read, lower-cased, trimmed and sorted: what a downstream looks its users up by."
  value       = sort(local.members)
}

output "planned" {
  description = "What the downstream group should hold after the apply (desired_members, or the addresses read), sorted, each in the group's own spelling when it holds it already. Give it to the downstream resource: the guards stop any plan that would hold fewer than min_members or remove more than max_removals."
  value       = local.planned

  precondition {
    condition     = length(local.planned) >= var.min_members
    error_message = "The group would hold ${length(local.planned)} members (from ${length(data.joinit_memberships.this.records)} memberships read, ${length(local.members)} distinct addresses), fewer than min_members (${var.min_members}): nothing was changed. Check the token, the organization, the filters (status, membership_names) and the downstream lookups, or lower min_members if the organization really shrank."
  }
  precondition {
    condition     = length(local.to_remove) <= local.max_removals
    error_message = "This plan would remove ${length(local.to_remove)} of ${length(var.current_members)} current members, more than max_removals allows (${local.max_removals}): nothing was changed. Check the filters (status, membership_names) and the token; if the removals are meant, raise max_removals for this plan."
  }
}

output "to_add" {
  description = "What this plan adds to the group, as desired_members (or the addresses read) spells it, sorted."
  value       = local.to_add
}

output "to_remove" {
  description = "What this plan removes from the group, as current_members spells it, sorted."
  value       = local.to_remove
}
