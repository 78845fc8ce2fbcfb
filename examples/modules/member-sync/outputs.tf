output "members" {
  description = "The desired members: distinct e-mail addresses, lower-cased and sorted."
  value       = sort(local.desired)
}

output "to_add" {
  description = "Addresses to add to the downstream group, lower-cased and sorted."
  value       = local.to_add
}

output "to_remove" {
  description = "Addresses to remove from the downstream group, as current_members spells them, sorted."
  value       = local.to_remove

  precondition {
    condition     = length(local.to_remove) <= local.max_removals
    error_message = "This plan would remove ${length(local.to_remove)} of ${length(var.current_members)} current members, more than max_removals allows (${local.max_removals}): nothing was changed. Check the filters (status, membership_names) and the token; if the removals are meant, raise max_removals for this plan."
  }
}
