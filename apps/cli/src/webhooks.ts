import {
  CreatedWebhook,
  WEBHOOK_EVENTS,
  WebhookDeliveryList,
  WebhookList,
  WebhookTestAccepted,
} from '@renamer/contracts';
import type { Command } from 'commander';
import { z } from 'zod';
import type { ApiClient } from './client';
import { CliError, EXIT } from './errors';
import { table } from './table';

const out = (text: string): void => {
  process.stdout.write(`${text}\n`);
};

/** `renamer webhooks add|list|remove|test|deliveries`: the account's webhook endpoints. */
export function addWebhookCommands(program: Command, client: () => Promise<ApiClient>) {
  const webhooks = program
    .command('webhooks')
    .description('endpoints told when a batch finishes or an image fails (signed as Standard Webhooks say)');

  webhooks
    .command('add')
    .description('add an endpoint; its signing secret is printed once, keep it')
    .argument('<url>', 'an https URL')
    .option(
      '--events <list>',
      `comma-separated events: ${WEBHOOK_EVENTS.join(', ')} (default: batch.completed,batch.failed)`,
      'batch.completed,batch.failed',
    )
    .option('--description <text>', 'what it is for')
    .option('--json', 'one JSON document on stdout')
    .action(async (url: string, options: { events: string; description?: string; json?: boolean }) => {
      const events = options.events
        .split(',')
        .map((event) => event.trim())
        .filter(Boolean);
      const unknown = events.filter((event) => !(WEBHOOK_EVENTS as readonly string[]).includes(event));
      if (unknown.length > 0) {
        throw new CliError(`unknown event ${unknown.join(', ')}: use ${WEBHOOK_EVENTS.join(', ')}`, EXIT.usage);
      }
      const created = await (await client()).request('/api/webhooks', CreatedWebhook, {
        method: 'POST',
        json: { url, events, ...(options.description ? { description: options.description } : {}) },
      });
      if (options.json) return out(JSON.stringify(created, null, 2));
      out(`webhook ${created.id} → ${created.url} (${created.events.join(', ')})`);
      out(`secret (shown once): ${created.secret}`);
    });

  webhooks
    .command('list')
    .description('your endpoints (without secrets)')
    .option('--json', 'one JSON document on stdout')
    .action(async (options: { json?: boolean }) => {
      const { items } = await (await client()).request('/api/webhooks', WebhookList);
      if (options.json) return out(JSON.stringify(items, null, 2));
      out(
        table(
          ['webhook', 'url', 'events', 'state'],
          items.map((hook) => [
            hook.id,
            hook.url,
            hook.events.join(','),
            hook.disabledAt ? `disabled ${hook.disabledAt}: ${hook.disabledReason ?? ''}` : 'active',
          ]),
        ),
      );
    });

  webhooks
    .command('remove')
    .description('delete an endpoint: nothing more is sent to it')
    .argument('<webhook>', 'the webhook id')
    .action(async (id: string) => {
      await (await client()).request(`/api/webhooks/${encodeURIComponent(id)}`, z.null(), { method: 'DELETE' });
      process.stderr.write(`webhook ${id} removed\n`);
    });

  webhooks
    .command('test')
    .description('send a webhook.test event to the endpoint')
    .argument('<webhook>', 'the webhook id')
    .action(async (id: string) => {
      const { messageId } = await (await client()).request(
        `/api/webhooks/${encodeURIComponent(id)}/test`,
        WebhookTestAccepted,
        { method: 'POST' },
      );
      out(`queued ${messageId}; see it with: renamer webhooks deliveries ${id}`);
    });

  webhooks
    .command('deliveries')
    .description('the attempts to deliver to an endpoint, newest first')
    .argument('<webhook>', 'the webhook id')
    .option('--limit <n>', 'at most this many attempts (1..100)', '50')
    .option('--json', 'one JSON document on stdout')
    .action(async (id: string, options: { limit: string; json?: boolean }) => {
      const query = new URLSearchParams({ limit: options.limit });
      const { items } = await (await client()).request(
        `/api/webhooks/${encodeURIComponent(id)}/deliveries?${query}`,
        WebhookDeliveryList,
      );
      if (options.json) return out(JSON.stringify(items, null, 2));
      out(
        table(
          ['at', 'event', 'message', 'attempt', 'status', 'answer', 'next attempt'],
          items.map((delivery) => [
            delivery.createdAt,
            delivery.event,
            delivery.messageId,
            String(delivery.attempt),
            delivery.status,
            delivery.responseStatus === null ? (delivery.error ?? '') : String(delivery.responseStatus),
            delivery.nextAttemptAt ?? '',
          ]),
        ),
      );
    });
}
