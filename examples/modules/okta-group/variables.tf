variable "group_id" {
  description = "The Okta group this module keeps, by id (00g…): of type OKTA_GROUP, since Okta refuses membership changes to a group imported from a directory or an app."
  type        = string
}

variable "status" {
  description = "Membership status of the members the group holds: a name (active, expired, …) or its code (100); null for every status. Passed to member-sync."
  type        = string
  default     = "active"
}

variable "membership_names" {
  description = "Only memberships of these types (by name); null for every type. Passed to member-sync."
  type        = set(string)
  default     = null
}

variable "min_members" {
  description = "Fewest Okta users the group may be planned to hold (users found, not addresses read): fewer stops the plan. member-sync's guard."
  type        = number
  default     = 1
}

variable "max_removals" {
  description = "Most of the group's members one plan may remove: a whole number (0, 1, 25), or a fraction below 1 (0.1 is a tenth, rounded down). More stops the plan. member-sync's guard."
  type        = number
  default     = 0.1
}

variable "organization_id" {
  description = "When set, a membership read of another Join It organization stops the plan. member-sync's guard; the provider's organization_id (or JOINIT_ORGANIZATION_ID) checks every read too."
  type        = string
  default     = null
}
