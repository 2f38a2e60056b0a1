output "service_name" {
  description = "Name of the ECS service."
  value       = aws_ecs_service.proxy.name
}

output "task_definition_arn" {
  description = "ARN of the task definition revision."
  value       = aws_ecs_task_definition.proxy.arn
}

output "task_role_arn" {
  description = "ARN of the task role (the proxy's read-only discovery permissions)."
  value       = aws_iam_role.task.arn
}

output "execution_role_arn" {
  description = "ARN of the task execution role."
  value       = aws_iam_role.execution.arn
}

output "log_group_name" {
  description = "CloudWatch log group of the proxy containers."
  value       = aws_cloudwatch_log_group.proxy.name
}

output "discovery_actions" {
  description = "The IAM actions granted to the task role."
  value       = local.provider_actions
}
