variable "group_object_id" {
  description = "The Entra group this module keeps: its object ID, a UUID (not \"/groups/<uuid>\"), spelt as the root's import block spells it."
  type        = string
}

variable "lookup_timeout" {
  description = "How long one lookup of up to 100 addresses may take, its waits on Graph's throttling (HTTP 429) included: a duration (15m)."
  type        = string
  default     = "15m"
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
  description = "Fewest Entra users the group may be planned to hold (users found, not addresses read): fewer stops the plan. member-sync's guard."
  type        = number
  default     = 1
}

variable "max_removals" {
  description = "Most of the group's direct members one plan may count as removals: a whole number (0, 1, 25), or a fraction below 1 (0.1 is a tenth, rounded down). More stops the plan. member-sync's guard."
  type        = number
  default     = 0.1
}

variable "organization_id" {
  description = "When set, a membership read of another Join It organization stops the plan. member-sync's guard; the provider's organization_id (or JOINIT_ORGANIZATION_ID) checks every read too."
  type        = string
  default     = null
}
