output "planned" {
  description = "The Okta user ids the group holds after the apply, sorted. The plan stops first if there are fewer than min_members, or if more than max_removals would go."
  value       = module.sync.planned
}

output "to_add" {
  description = "The Okta user ids this plan adds to the group, sorted."
  value       = module.sync.to_add
}

output "to_remove" {
  description = "The Okta user ids this plan removes from the group (members whose membership ended, members whose address no longer finds them, users added by hand), sorted."
  value       = module.sync.to_remove
}

output "not_found" {
  description = "The Join It addresses (lower-cased) no Okta user was found for: no user has it as profile.email, its only users are deprovisioned, or it holds a quote or a backslash, which the search cannot hold. Personal data: a root should output length(module.x.not_found), not the list."
  value       = local.not_found
}
