output "members" {
  description = "The group's members: e-mail addresses, lower-cased and sorted. Pass it back as previous_members at the next plan."
  value       = sort(local.desired)
}

output "group_id" {
  description = "The Keystone group's id."
  value       = openstack_identity_group_v3.this.id
}

output "to_add" {
  description = "Addresses this plan adds to the group (against previous_members), sorted."
  value       = local.to_add
}

output "to_remove" {
  description = "Addresses this plan removes from the group (against previous_members), sorted: their users are disabled, not deleted."
  value       = local.to_remove
}

output "memberships_without_email" {
  description = "The _id of each membership read without an e-mail address: they get no user. Ids, not addresses, so a plan log holds no personal data."
  value       = sort([for id, email in local.emails : id if email == ""])
}
