output "planned" {
  description = "The group's members after the apply, by user key (the id of the oldest Join It membership of the user's address), sorted. Ids, not addresses: pass it back as previous_members at the next plan. A plan that would hold fewer than min_members, or remove more than max_removals, stops first (the guards of member-sync)."
  value       = module.sync.planned
}

output "to_add" {
  description = "The user keys this plan adds to the group (against previous_members), sorted: members who became active, or whose user is new."
  value       = module.sync.to_add
}

output "to_remove" {
  description = "The user keys this plan removes from the group (against previous_members), sorted: their users are disabled, not deleted. A new address is no removal: the user is renamed."
  value       = module.sync.to_remove
}

output "group_id" {
  description = "The Keystone group's id."
  value       = openstack_identity_group_v3.this.id
}

output "memberships_without_address" {
  description = "The _id of each membership read without an e-mail address: they get no user. Ids, not addresses, so a plan log holds no personal data."
  value       = module.sync.memberships_without_address
}
