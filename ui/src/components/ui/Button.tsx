// The board's one button: four variants, two sizes (28 px and 24 px), an optional leading icon and a
// busy state that keeps the button's width and says what is happening. An icon-only button must be
// named (`IconButton` requires `aria-label`). `ButtonLink` is a router link that looks like a button.
import type { ComponentProps, ReactNode } from 'react';
import { Link } from 'react-router';
import { Icon, type LucideIcon } from './Icon';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'destructive';
export type ButtonSize = 'sm' | 'md';

interface LookProps {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** A Lucide icon before the label. */
  icon?: LucideIcon;
}

export function buttonClass({ variant = 'secondary', size = 'md' }: LookProps, extra?: string): string {
  return ['btn', `btn-${variant}`, `btn-${size}`, extra].filter(Boolean).join(' ');
}

export function Button({
  variant,
  size,
  icon,
  loading = false,
  className,
  type = 'button',
  disabled,
  children,
  ...rest
}: ComponentProps<'button'> &
  LookProps & {
    /** The call it starts is out: disabled, with a spinner; pass the busy words as children ("Saving…"). */
    loading?: boolean;
  }) {
  return (
    <button
      type={type}
      className={buttonClass({ variant, size }, className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading ? (
        <span className="btn-spinner" aria-hidden="true" />
      ) : (
        icon && <Icon icon={icon} size={size === 'sm' ? 14 : 16} />
      )}
      {children}
    </button>
  );
}

/** A button that is only an icon: its `aria-label` is what screen readers (and the tooltip, if any) say. */
export function IconButton({
  icon,
  variant = 'ghost',
  size,
  className,
  ...rest
}: Omit<ComponentProps<typeof Button>, 'children' | 'icon'> & { icon: LucideIcon; 'aria-label': string }) {
  return (
    <Button
      {...rest}
      variant={variant}
      size={size}
      icon={icon}
      className={className ? `btn-icon ${className}` : 'btn-icon'}
    />
  );
}

/** A react-router link in a button's clothes, for navigation that reads as an action ("New issue"). */
export function ButtonLink({
  variant,
  size,
  icon,
  className,
  children,
  ...rest
}: ComponentProps<typeof Link> & LookProps & { children: ReactNode }) {
  return (
    <Link className={buttonClass({ variant, size }, className)} {...rest}>
      {icon && <Icon icon={icon} size={size === 'sm' ? 14 : 16} />}
      {children}
    </Link>
  );
}
