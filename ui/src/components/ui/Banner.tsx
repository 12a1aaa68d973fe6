// A message across the top of a page or section: a tone with its icon, a title, a sentence and an
// optional action ("Resume agents"). Danger and warning banners are alerts, read out when they appear.
import { CircleAlert, CircleCheck, Info, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Icon, type LucideIcon } from './Icon';

export type BannerTone = 'info' | 'warning' | 'danger' | 'success';

const TONE_ICON: Record<BannerTone, LucideIcon> = {
  info: Info,
  warning: TriangleAlert,
  danger: CircleAlert,
  success: CircleCheck,
};

export function Banner({
  tone = 'info',
  title,
  children,
  action,
  icon,
}: {
  tone?: BannerTone;
  title: string;
  /** The sentence under the title: what happened and what to do. */
  children?: ReactNode;
  /** A Button or ButtonLink on the right. */
  action?: ReactNode;
  /** Replaces the tone's icon. */
  icon?: LucideIcon;
}) {
  return (
    <div className={`banner banner-${tone}`} role={tone === 'danger' || tone === 'warning' ? 'alert' : 'status'}>
      <Icon icon={icon ?? TONE_ICON[tone]} className="banner-icon" />
      <div className="banner-text">
        <p className="banner-title">{title}</p>
        {children && <div className="banner-body">{children}</div>}
      </div>
      {action && <div className="banner-action">{action}</div>}
    </div>
  );
}
