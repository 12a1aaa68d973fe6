import { Pencil, Plus, Trash2 } from 'lucide-react';
import { Button, ButtonLink, IconButton } from '../../../components/ui/Button';
import { Row } from './Row';

const VARIANTS = ['primary', 'secondary', 'ghost', 'destructive'] as const;

export function ButtonSection() {
  return (
    <>
      {(['md', 'sm'] as const).map((size) => (
        <Row key={size} label={size === 'md' ? 'Medium (28 px)' : 'Small (24 px)'}>
          {VARIANTS.map((variant) => (
            <Button key={variant} variant={variant} size={size} icon={variant === 'primary' ? Plus : undefined}>
              {variant[0]?.toUpperCase() + variant.slice(1)}
            </Button>
          ))}
          <IconButton icon={Pencil} size={size} aria-label={`Edit (${size})`} />
          <IconButton icon={Trash2} size={size} variant="destructive" aria-label={`Delete (${size})`} />
        </Row>
      ))}
      <Row label="Disabled">
        {VARIANTS.map((variant) => (
          <Button key={variant} variant={variant} disabled>
            {variant[0]?.toUpperCase() + variant.slice(1)}
          </Button>
        ))}
      </Row>
      <Row label="Loading">
        <Button variant="primary" loading>
          Saving…
        </Button>
        <Button loading>Loading…</Button>
      </Row>
      <Row label="Link">
        <ButtonLink to="/_design#buttons" variant="secondary">
          A link as a button
        </ButtonLink>
      </Row>
    </>
  );
}
